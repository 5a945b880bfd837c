/**
 * The app's middleware chain, built once at start-up by walking {@link HOST_PHASES} in order:
 * `front`, the host's front layer with `static` folders and the body parser, `request`,
 * the view dispatcher with `preflight` and `route`, the hand-written routes, `fallback`. Each phase
 * is asked of the plugins in their order; what a phase needs (the responder, the dispatcher) is
 * made before it, so nothing is bound later. The mount layer goes in front of it all when the app
 * is started with mounted apps ({@link mountLayer}).
 */
import type Router from "@koa/router";
import type Koa from "koa";
import type { Middleware } from "koa";
import compose from "koa-compose";
import type { Route } from "routing-kernel";
import { bodyParser } from "./body.js";
import type { Dispatcher } from "./dispatch.js";
import { errorRouteFinder } from "./error-route.js";
import type { MountedApp } from "./host-types.js";
import type { HostPlugin, PhaseContext, StaticFolder } from "./plugin.js";
import type { ProductionSettings } from "./production/settings.js";
import { requestFront } from "./request-front.js";
import { staticDir, staticFiles } from "./static-files.js";

/** The plugins' handlers of one per-route phase, as the dispatcher asks for them. */
export type RoutePhase = (route: Route) => Middleware[];

/** The `route` or `preflight` phase of every plugin, for one route at a time. */
export function routePhase(plugins: readonly HostPlugin[], phase: "route" | "preflight"): RoutePhase {
  const handlers = plugins.flatMap((plugin) => {
    const handler = plugin.phases?.[phase];
    return handler ? [handler.bind(plugin.phases)] : [];
  });
  return (route) => handlers.map((handler) => handler(route)).filter((m): m is Middleware => m !== undefined);
}

/** The app's static folder and the plugins' (`static` phase), in that order. */
export function staticFolders(plugins: readonly HostPlugin[], context: PhaseContext): StaticFolder[] {
  const { config } = context;
  return [
    { prefix: config.static.prefix, dir: staticDir(config.root, config.static.dir) },
    ...plugins.flatMap((plugin) => plugin.phases?.static?.(context) ?? []),
  ];
}

/** What {@link useChain} puts together. */
export interface ChainParts {
  readonly plugins: readonly HostPlugin[];
  readonly context: PhaseContext;
  readonly production: ProductionSettings;
  readonly folders: readonly StaticFolder[];
  readonly dispatcher: Dispatcher;
  readonly router: Router;
  readonly mounts: readonly MountedApp[];
}

/** Adds the whole chain to `koa`, phase by phase. */
export function useChain(koa: Koa, parts: ChainParts): void {
  const { plugins, context, dispatcher } = parts;
  const { config, logger, basePath } = context;
  for (const plugin of plugins) {
    const front = plugin.phases?.front?.(context);
    if (front) koa.use(front);
  }
  const served = parts.folders.map(({ prefix, dir }) => ({
    prefix: basePath + prefix,
    serve: staticFiles({ dir, prefix: basePath + prefix, maxAge: config.static.maxAge }),
  }));
  koa.use(
    requestFront({
      production: parts.production,
      plugins,
      appRoot: config.root,
      requestLog: config.logRequests && logger.isLevelEnabled("info") ? logger : undefined,
      errors: {
        logger,
        responder: context.responder,
        development: config.env === "development",
        routeAt: errorRouteFinder(context.table, basePath),
      },
      inner: staticOrBody(served, bodyParser(config.bodyLimits)),
    }),
  );
  for (const plugin of plugins) for (const middleware of plugin.phases?.request?.(context) ?? []) koa.use(middleware);
  koa.use(dispatcher.middleware);
  const fallbacks = plugins.flatMap((plugin) => plugin.phases?.fallback?.(context) ?? []);
  koa.use(handWrittenRoutes(parts.router, fallbacks));
}

/**
 * Hands requests under a mounted prefix to the child app's own middleware stack, which answers
 * them through its own front (id, log line, errors). The host puts it first in the chain when it
 * makes its request handler, where the mounts are final (mounting after that is refused), and only
 * when there is one: most apps mount nothing, and a layer that only hands on is still a Koa layer
 * per request.
 * @internal the host wires it.
 */
export function mountLayer(mounts: readonly MountedApp[]): Middleware {
  return (ctx, next) => {
    for (const { prefix, host: child } of mounts) {
      if (ctx.path === prefix || ctx.path.startsWith(`${prefix}/`)) {
        ctx.respond = false;
        return new Promise<void>((resolve) => {
          ctx.res.once("finish", resolve);
          ctx.res.once("close", resolve);
          child.callback()(ctx.req, ctx.res);
        });
      }
    }
    return next();
  };
}

/**
 * The step in front of routing: a GET or HEAD goes to the static files only under one of their
 * prefixes (the longest first), other verbs to the body parser, and everything else straight on.
 * Each keeps its own checks; this saves every view request pass-through middleware calls.
 */
function staticOrBody(
  folders: ReadonlyArray<{ prefix: string; serve: Middleware }>,
  parseBody: Middleware,
): Middleware {
  const prefixed = folders
    .map(({ prefix, serve }) => ({ under: `${prefix.replace(/\/+$/, "")}/`, serve }))
    .sort((a, b) => b.under.length - a.under.length);
  return (ctx, next) => {
    const method = ctx.method;
    if (method === "GET" || method === "HEAD") {
      const path = ctx.path;
      for (const folder of prefixed) if (path.startsWith(folder.under)) return folder.serve(ctx, next);
      return next();
    }
    return parseBody(ctx, next);
  };
}

/**
 * The routes written by hand on `host.router` (and the plugins' fallbacks after them, such as the
 * OpenAPI endpoints), behind one layer that hands a request straight on while the router holds no
 * route: most apps register none, and @koa/router would still match every request against its
 * empty list. Checked per request, so a route registered late still answers.
 */
function handWrittenRoutes(router: Router, fallbacks: readonly Middleware[]): Middleware {
  const full = compose([router.routes(), ...fallbacks, router.allowedMethods()] as Middleware[]);
  const fallback = fallbacks.length === 0 ? undefined : fallbacks.length === 1 ? fallbacks[0] : compose([...fallbacks]);
  return (ctx, next) => {
    if (router.stack.length > 0) return full(ctx, next);
    return fallback ? fallback(ctx, next) : next();
  };
}

import type { Server } from "node:http";
import { createServer } from "node:http";
import Router from "@koa/router";
import Koa, { type Context, type Middleware } from "koa";
import compose from "koa-compose";
import type { Logger } from "pino";
import { buildRouteTable, type Conventions, type Route, type RouteTable, type ViewModule } from "routing-kernel";
import { bodyParser } from "./body.js";
import { environmentSections, loadConfig, type AppConfig } from "./config.js";
import { HOST_CONFIG_KEYS, mergeConfigKeys, validateConfigKeys, type ConfigKeys } from "./config-keys.js";
import { loadViewModules } from "./discovery.js";
import { createDispatch, type RouteLookup } from "./dispatch.js";
import { errorRouteFinder } from "./error-route.js";
import { E_HOST_STARTED, E_MOUNT_UNGUARDED, E_PORT_IN_USE } from "./errors.js";
import { checkMount, mountPrefix, type MountedApp, type MountParent } from "./mounts.js";
import { createLogger, installContextLogger } from "./logger.js";
import type { HostPlugin, StaticFolder } from "./plugin.js";
import { installTrustProxy, koaProxyOptions } from "./production/trust-proxy.js";
import { productionSettings } from "./production/settings.js";
import type { Responder } from "./responder.js";
import type { HostRuntime } from "./runtime.js";
import { requestFront } from "./request-front.js";
import { OPENAPI_CONFIG_KEYS, openApiMiddleware, openApiSettings, openApiSources } from "./openapi/index.js";
import { staticDir, staticFiles } from "./static-files.js";

/** What a framework's responder factory receives at start-up. */
export interface ResponderSetup {
  readonly config: AppConfig;
  readonly logger: Logger;
  readonly table: RouteTable;
  /**
   * Template variables for a request: `url_for`, `request`, `config` and every plugin's locals,
   * in a new object per call that the caller may add to.
   */
  readonly locals: (ctx: Context) => Record<string, unknown>;
}

/** Options of {@link createHost}. */
export interface HostOptions {
  /** The app folder (holds `views/`, `templates/`, `static/`, `lib/config.ts`). */
  readonly root: string;
  /** The framework's routing conventions. */
  readonly conventions: Conventions;
  /** Builds the framework's responder once the table and config exist. */
  readonly responder: (setup: ResponderSetup) => Responder | Promise<Responder>;
  /** View modules already imported; default: every module under `views/` (or `viewModules`). */
  readonly modules?: readonly ViewModule[];
  /** Names of modules under `views/` to load (multi-application); default: all. */
  readonly viewModules?: readonly string[];
  /** Config keys that win over `lib/config.ts` and the environment. */
  readonly config?: Readonly<Record<string, unknown>>;
  /** Batteries, or a function of the resolved config that returns them. */
  readonly plugins?: readonly HostPlugin[] | ((config: AppConfig) => readonly HostPlugin[] | Promise<readonly HostPlugin[]>);
  /** A URL prefix the whole app lives under (when mounted inside another app). */
  readonly basePath?: string;
  /** Use this logger instead of creating one. */
  readonly logger?: Logger;
  /**
   * Config keys the framework reads (its batteries' keys too, also when one is switched off);
   * with the host's and every plugin's `configKeys`, the keys an app's config may use.
   */
  readonly configKeys?: ConfigKeys | readonly ConfigKeys[];
}

/** A built app: Koa with the route table mounted, plugins set up, ready to listen. */
export interface Host {
  readonly koa: Koa;
  readonly table: RouteTable;
  readonly config: AppConfig;
  readonly logger: Logger;
  /** The response kind of a route, for listings (from the framework's responder). */
  describe(route: Route): string;
  /** @koa/router for routes written by hand; they run after view routes and share all middleware. */
  readonly router: Router;
  /** The request handler for `http.createServer` (in-process tests use it too). */
  callback(): (req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void;
  /** Listens on `hostname:port` (127.0.0.1 and an ephemeral port by default). */
  listen(port?: number, hostname?: string): Promise<Server>;
  /**
   * Serves another host under a path prefix (multi-application); before the first request only.
   * A prefix that would hide one of this app's routes, static folders or mounts is refused
   * (`E_MOUNT_OVERLAP`); `checkMount` runs the same check before the child is built.
   */
  mount(prefix: string, child: Host): void;
  /** Throws the error {@link Host.mount} would for `prefix`, so a refused child need not be built. */
  checkMount(prefix: string): void;
  /** The apps mounted under this one, in mount order (listings include their routes). */
  readonly mounts: readonly MountedApp[];
  /** Stops the server (if listening) and closes every plugin. */
  close(): Promise<void>;
}

/**
 * Builds an app: resolves config, discovers view modules, commits the route table, sets plugins up,
 * and assembles the middleware once: the request front (request id, health, request log, errors,
 * static files or body) -> plugins -> view dispatch -> hand-written routes. Nothing here is
 * repeated per request.
 */
export async function createHost(options: HostOptions): Promise<Host> {
  const config = await loadConfig(options.root, { ...options.config, ...(options.basePath ? { basePath: options.basePath } : {}) });
  const modules = options.modules ?? (await loadViewModules(config.root, options.viewModules));
  const table = buildRouteTable({ conventions: options.conventions, modules });
  const production = productionSettings(config);
  const plugins = typeof options.plugins === "function" ? await options.plugins(config) : (options.plugins ?? []);
  // Made once the plugins are known: their log fields (a request's trace) join every line.
  const logger = options.logger ?? createLogger(config, "app", logFieldsOf(plugins));
  checkConfigKeys(config, options.configKeys, plugins);
  for (const plugin of plugins) await plugin.setup?.({ config, logger, table });

  const basePath = (options.basePath ?? "").replace(/\/+$/, "");
  // trustProxy as a number believes that many X-Forwarded-For entries from the right (the balancer's own);
  // as addresses, the forwarded headers only on a connection from one of them.
  const koa = new Koa({ keys: [config.secretKey], ...koaProxyOptions(production.trustProxy) });
  installTrustProxy(koa, production.trustProxy);
  // Bound once the dispatcher exists (below); plugins' middleware only calls it per request.
  let lookup: (ctx: Context) => RouteLookup | undefined = () => undefined;
  const runtime: HostRuntime = Object.freeze({ config, logger, table, plugins, basePath, lookupRoute: (ctx: Context) => lookup(ctx) });
  // On the context prototype: set once, read by views and templates with no per-request cost.
  Object.defineProperty(koa.context, "runtime", { value: runtime, enumerable: false });
  installContextLogger(koa.context, logger);

  const pluginLocals = plugins.filter((p) => p.locals).map((p) => p.locals!.bind(p));
  const urlFor = (target: string, methodOrParams?: string | Record<string, unknown>, params?: Record<string, unknown>) =>
    basePath + table.urlFor(target, methodOrParams, params);
  // The plain static URL; the services battery replaces it with the content-hashed one.
  const staticUrl = (path: string) => `${basePath}${config.static.prefix}/${String(path).replace(/^\/+/, "")}`;
  const locals = (ctx: Context): Record<string, unknown> => {
    const values: Record<string, unknown> = { url_for: urlFor, static: staticUrl, request: ctx.request, config, ctx };
    for (const local of pluginLocals) Object.assign(values, local(ctx));
    return values;
  };
  const responder = await options.responder({ config, logger, table, locals });

  const mounts: MountedApp[] = [];
  let started = false;
  const routeMiddleware = (route: Route): Middleware[] =>
    plugins.map((p) => p.routeMiddleware?.(route)).filter((m): m is Middleware => m !== undefined);
  const router = new Router();

  // A mounted app answers its requests through its own front (id, log line, errors), so the mount
  // layer comes first; it joins the chain only when an app is mounted (most apps have none).
  const mountAt = 0;
  const mountLayer = mountMiddleware(mounts);
  const folders: StaticFolder[] = [
    { prefix: config.static.prefix, dir: staticDir(config.root, config.static.dir) },
    ...plugins.flatMap((plugin) => plugin.staticFolders?.() ?? []),
  ];
  const mountParent: MountParent = { table, staticPrefixes: folders.map((folder) => folder.prefix), mounts };
  const served = folders.map(({ prefix, dir }) => ({ prefix: basePath + prefix, serve: staticFiles({ dir, prefix: basePath + prefix, maxAge: config.static.maxAge }) }));
  // Plugins' front middleware (metrics, the request's trace) wraps everything below, log line included.
  for (const plugin of plugins) {
    const front = plugin.frontMiddleware?.();
    if (front) koa.use(front);
  }
  // Request id, health endpoints, request log, errors and the static-or-body step: one layer.
  koa.use(
    requestFront({
      production,
      plugins,
      requestLog: config.logRequests && logger.isLevelEnabled("info") ? logger : undefined,
      errors: { logger, responder, development: config.env === "development", routeAt: errorRouteFinder(table, basePath) },
      inner: staticOrBody(served, bodyParser(config.bodyLimits)),
    }),
  );
  for (const plugin of plugins) for (const middleware of plugin.middleware?.() ?? []) koa.use(middleware);
  const preflight = (route: Route): Middleware[] =>
    plugins.map((p) => p.preflightMiddleware?.(route)).filter((m): m is Middleware => m !== undefined);
  const dispatch = createDispatch({ table, respond: (route) => responder.prepare(route), routeMiddleware, preflight, basePath });
  lookup = dispatch.lookup;
  koa.use(dispatch.middleware);
  // The OpenAPI document and its page come after the app's own routes: a view at the same path wins.
  const openApi = openApiSettings(config);
  koa.use(handWrittenRoutes(router, openApi ? openApiMiddleware(() => openApiSources(host), openApi, basePath) : undefined));

  let server: Server | undefined;
  let handler: ReturnType<Koa["callback"]> | undefined;
  const host: Host = {
    koa,
    table,
    config,
    logger,
    router,
    describe: (route) => responder.describe(route),
    callback() {
      started = true;
      handler ??= koa.callback();
      return handler;
    },
    async listen(port = 0, hostname = "127.0.0.1") {
      const listening = createServer(host.callback());
      await new Promise<void>((resolve, reject) => {
        // A busy port is the user's to fix (another server, or a second dev server): say how.
        listening.once("error", (error: NodeJS.ErrnoException) => reject(error.code === "EADDRINUSE" ? new E_PORT_IN_USE(`${hostname}:${port}`) : error));
        listening.listen(port, hostname, () => resolve());
      });
      server = listening;
      return listening;
    },
    mounts,
    checkMount: (prefix) => checkMount(mountParent, prefix),
    mount(prefix, child) {
      if (started) throw new E_HOST_STARTED(`The app mounted at ${prefix}`);
      // Fail closed: a mounted app answers its requests itself, so it must carry the parent's guards.
      const childPlugins = new Set(runtimeOfHost(child).plugins.map((plugin) => plugin.name));
      for (const plugin of plugins) if (plugin.requiredInMounts && !childPlugins.has(plugin.name)) throw new E_MOUNT_UNGUARDED(prefix, plugin.name);
      checkMount(mountParent, prefix);
      if (mounts.length === 0) koa.middleware.splice(mountAt, 0, mountLayer);
      mounts.push({ prefix: mountPrefix(prefix), host: child });
    },
    async close() {
      if (server) {
        const closing = server;
        server = undefined;
        closing.closeAllConnections?.();
        await new Promise<void>((resolve) => closing.close(() => resolve()));
      }
      for (const mounted of mounts) await mounted.host.close();
      for (const plugin of [...plugins].reverse()) await plugin.close?.();
    },
  };
  return host;
}

/** The plugins' log fields as one pino mixin, or `undefined` when none adds any (lines then cost nothing extra). */
function logFieldsOf(plugins: readonly HostPlugin[]): (() => Record<string, unknown>) | undefined {
  const sources = plugins.map((plugin) => plugin.logFields?.()).filter((fields): fields is () => Record<string, unknown> => fields !== undefined);
  if (sources.length === 0) return undefined;
  if (sources.length === 1) return sources[0];
  return () => Object.assign({}, ...sources.map((fields) => fields()));
}

function runtimeOfHost(host: Host): HostRuntime {
  return (host.koa.context as unknown as { runtime: HostRuntime }).runtime;
}

/** An unknown key in the merged config or in any `environments` section stops the start. */
function checkConfigKeys(config: AppConfig, framework: HostOptions["configKeys"], plugins: readonly HostPlugin[]): void {
  const declared = Array.isArray(framework) ? framework : [framework as ConfigKeys | undefined];
  const keys = mergeConfigKeys(HOST_CONFIG_KEYS, { openapi: OPENAPI_CONFIG_KEYS }, ...declared, ...plugins.map((plugin) => plugin.configKeys));
  validateConfigKeys(config, keys, "in lib/config.ts, the environment or the app's config option");
  for (const [name, section] of Object.entries(environmentSections(config))) {
    validateConfigKeys(section, keys, `in environments.${name} of lib/config.ts`, config["appKeys"]);
  }
}

/**
 * The step in front of routing: a GET or HEAD goes to the static files only under one of their
 * prefixes (the longest first), other verbs to the body parser, and everything else straight on.
 * Each keeps its own checks; this saves every view request pass-through middleware calls.
 */
function staticOrBody(folders: ReadonlyArray<{ prefix: string; serve: Middleware }>, parseBody: Middleware): Middleware {
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
 * The routes written by hand on `host.router` (and the OpenAPI endpoints after them), behind one
 * layer that hands a request straight on while the router holds no route: most apps register none,
 * and @koa/router would still match every request against its empty list. Checked per
 * request, so a route registered late still answers.
 */
function handWrittenRoutes(router: Router, openApi: Middleware | undefined): Middleware {
  const full = compose([router.routes(), ...(openApi ? [openApi] : []), router.allowedMethods()] as Middleware[]);
  return (ctx, next) => {
    if (router.stack.length > 0) return full(ctx, next);
    return openApi ? openApi(ctx, next) : next();
  };
}

/** Hands requests under a mounted prefix to the child app's own middleware stack. */
function mountMiddleware(mounts: readonly MountedApp[]): Middleware {
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

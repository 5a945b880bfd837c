import type { Server } from "node:http";
import { checkDevToolsConfig, devToolsBindWarning } from "./dev-access/index.js";
import { createServer } from "node:http";
import Router from "@koa/router";
import Koa, { type Context, type Middleware } from "koa";
import compose from "koa-compose";
import { buildRouteTable, type Route } from "routing-kernel";
import { bodyParser } from "./body.js";
import { environmentSections, loadConfig, type AppConfig } from "./config.js";
import { HOST_CONFIG_KEYS, mergeConfigKeys, validateConfigKeys, type ConfigKeys } from "./config-keys.js";
import { loadViewModules } from "./discovery.js";
import { createDispatch, type RouteLookup } from "./dispatch.js";
import { errorRouteFinder } from "./error-route.js";
import { E_HOST_STARTED, E_MOUNT_UNGUARDED, E_PORT_IN_USE } from "./errors.js";
import type { Host, HostOptions, MountedApp } from "./host-types.js";

// The types stay importable from the module that builds them.
export type { Host, HostOptions, MountedApp, ResponderSetup } from "./host-types.js";
import { checkMount, mountPrefix, type MountParent } from "./mounts.js";
import { createLogger, installContextLogger } from "./logger.js";
import type { HostPlugin, HostRuntime, StaticFolder } from "./plugin.js";
import { installTrustProxy, koaProxyOptions, peerTrust } from "./production/trust-proxy.js";
import { productionSettings } from "./production/settings.js";
import { requestFront } from "./request-front.js";
import { openApiPlugin } from "./openapi/plugin.js";
import { appFolderOf } from "./app-folder.js";
import { setDriverRoot } from "./driver-location.js";
import { staticDir, staticFiles } from "./static-files.js";
import { upgradeListener } from "./upgrade.js";

/**
 * Builds an app: resolves config, discovers view modules, commits the route table, sets plugins up,
 * and assembles the middleware once: the request front (request id, health, request log, errors,
 * static files or body) -> plugins -> view dispatch -> hand-written routes. Nothing here is
 * repeated per request.
 */
export async function createHost(options: HostOptions): Promise<Host> {
  const config = await loadConfig(options.root, {
    ...options.config,
    ...(options.basePath ? { basePath: options.basePath } : {}),
  });
  // The app's drivers (database, Redis, mail...) resolve from its folder, not the framework's.
  setDriverRoot(appFolderOf(config.root));
  const modules = options.modules ?? (await loadViewModules(config.root, options.viewModules));
  const table = buildRouteTable({ conventions: options.conventions, modules });
  const production = productionSettings(config);
  checkDevToolsConfig(config);
  // The OpenAPI document is a plugin like the others, last: its answers come after the app's routes.
  const plugins = [
    ...(typeof options.plugins === "function" ? await options.plugins(config) : (options.plugins ?? [])),
    openApiPlugin(),
  ];
  // Made once the plugins are known: their log fields (a request's trace) join every line.
  const logger = options.logger ?? createLogger(config, "app", logFieldsOf(plugins));
  checkConfigKeys(config, options.configKeys, plugins);
  // The app's prefix: given by the app that mounts it, else its own config key.
  const basePath = (options.basePath ?? config.basePath ?? "").replace(/\/+$/, "");
  // Bound once the dispatcher exists (below); plugins' middleware only calls it per request.
  let lookup: (ctx: Context) => RouteLookup | undefined = () => undefined;
  const mounts: MountedApp[] = [];
  const mountedRuntimes: { prefix: string; runtime: HostRuntime }[] = [];
  const runtime: HostRuntime = Object.freeze({
    config,
    logger,
    table,
    plugins,
    basePath,
    mounts: mountedRuntimes,
    lookupRoute: (ctx: Context) => lookup(ctx),
    fromTrustedProxy: peerTrust(production.trustProxy),
  });
  for (const plugin of plugins) await plugin.setup?.({ config, logger, table, basePath, runtime });
  // trustProxy as a number believes that many X-Forwarded-For entries from the right (the balancer's own);
  // as addresses, the forwarded headers only on a connection from one of them.
  const koa = new Koa({ keys: [config.secretKey], ...koaProxyOptions(production.trustProxy) });
  installTrustProxy(koa, production.trustProxy);
  // On the context prototype: set once, read by views and templates with no per-request cost.
  Object.defineProperty(koa.context, "runtime", { value: runtime, enumerable: false });
  installContextLogger(koa.context, logger);
  // Koa reports here what fails after the headers are sent: a streamed body (a static file) whose
  // client closed the connection first is no fault of the app (Koa would print each one on stderr);
  // anything else goes to the app's log instead of Koa's console.error.
  koa.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code && CLIENT_GONE.has(error.code)) return;
    logger.error({ err: error }, "response failed after its headers were sent");
  });

  const pluginLocals = plugins.filter((p) => p.locals).map((p) => p.locals!.bind(p));
  const urlFor = (
    target: string,
    methodOrParams?: string | Record<string, unknown>,
    params?: Record<string, unknown>,
  ) => basePath + table.urlFor(target, methodOrParams, params);
  // The plain static URL; the services battery replaces it with the content-hashed one.
  const staticUrl = (path: string) => `${basePath}${config.static.prefix}/${String(path).replace(/^\/+/, "")}`;
  const locals = (ctx: Context): Record<string, unknown> => {
    const values: Record<string, unknown> = { url_for: urlFor, static: staticUrl, request: ctx.request, config, ctx };
    for (const local of pluginLocals) Object.assign(values, local(ctx));
    return values;
  };
  const responder = await options.responder({ config, logger, table, basePath, locals });

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
  const served = folders.map(({ prefix, dir }) => ({
    prefix: basePath + prefix,
    serve: staticFiles({ dir, prefix: basePath + prefix, maxAge: config.static.maxAge }),
  }));
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
      appRoot: config.root,
      requestLog: config.logRequests && logger.isLevelEnabled("info") ? logger : undefined,
      errors: {
        logger,
        responder,
        development: config.env === "development",
        routeAt: errorRouteFinder(table, basePath),
      },
      inner: staticOrBody(served, bodyParser(config.bodyLimits)),
    }),
  );
  for (const plugin of plugins) for (const middleware of plugin.middleware?.() ?? []) koa.use(middleware);
  const preflight = (route: Route): Middleware[] =>
    plugins.map((p) => p.preflightMiddleware?.(route)).filter((m): m is Middleware => m !== undefined);
  const dispatch = createDispatch({
    table,
    respond: (route) => responder.prepare(route),
    routeMiddleware,
    preflight,
    basePath,
  });
  lookup = dispatch.lookup;
  koa.use(dispatch.middleware);
  // Plugins' fallbacks (the OpenAPI document and its page) come after the app's own routes: a view at the same path wins.
  koa.use(
    handWrittenRoutes(
      router,
      plugins.flatMap((plugin) => plugin.fallbackMiddleware?.() ?? []),
    ),
  );

  let server: Server | undefined;
  let handler: ReturnType<Koa["callback"]> | undefined;
  const host: Host = {
    koa,
    table,
    config,
    logger,
    runtime,
    router,
    describe: (route) => responder.describe(route),
    callback() {
      started = true;
      handler ??= koa.callback();
      return handler;
    },
    upgradeListener() {
      // This app's claimed paths and those of the apps mounted in it (the mount layer forwards them).
      const owners = [runtime, ...mountedRuntimes.map((mounted) => mounted.runtime)];
      const paths = owners.flatMap((owner) => owner.plugins.flatMap((plugin) => plugin.upgradePaths?.() ?? []));
      return upgradeListener(paths, host.callback());
    },
    async listen(port = 0, hostname = "127.0.0.1") {
      const listening = createServer(host.callback());
      const upgrades = host.upgradeListener();
      if (upgrades) listening.on("upgrade", upgrades);
      await new Promise<void>((resolve, reject) => {
        // A busy port is the user's to fix (another server, or a second dev server): say how.
        listening.once("error", (error: NodeJS.ErrnoException) =>
          reject(error.code === "EADDRINUSE" ? new E_PORT_IN_USE(`${hostname}:${port}`) : error),
        );
        listening.listen(port, hostname, () => resolve());
      });
      // Another address than loopback: say which development tools are served and to whom.
      const tools = plugins.flatMap((plugin) => plugin.devTools?.() ?? []);
      const warning = devToolsBindWarning(hostname, tools, config);
      if (warning) logger.warn({ hostname, devTools: tools }, warning);
      server = listening;
      return listening;
    },
    mounts,
    checkMount: (prefix) => checkMount(mountParent, prefix),
    mount(prefix, child) {
      if (started) throw new E_HOST_STARTED(`The app mounted at ${prefix}`);
      // Fail closed: a mounted app answers its requests itself, so it must carry the parent's guards.
      const childPlugins = new Set(child.runtime.plugins.map((plugin) => plugin.name));
      for (const plugin of plugins)
        if (plugin.requiredInMounts && !childPlugins.has(plugin.name)) throw new E_MOUNT_UNGUARDED(prefix, plugin.name);
      checkMount(mountParent, prefix);
      if (mounts.length === 0) koa.middleware.splice(mountAt, 0, mountLayer);
      const at = mountPrefix(prefix);
      mounts.push({ prefix: at, host: child });
      mountedRuntimes.push({ prefix: at, runtime: child.runtime });
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
  const sources = plugins
    .map((plugin) => plugin.logFields?.())
    .filter((fields): fields is () => Record<string, unknown> => fields !== undefined);
  if (sources.length === 0) return undefined;
  if (sources.length === 1) return sources[0];
  return () => Object.assign({}, ...sources.map((fields) => fields()));
}

/** An unknown key in the merged config or in any `environments` section stops the start. */
function checkConfigKeys(
  config: AppConfig,
  framework: HostOptions["configKeys"],
  plugins: readonly HostPlugin[],
): void {
  const declared = Array.isArray(framework) ? framework : [framework as ConfigKeys | undefined];
  const keys = mergeConfigKeys(HOST_CONFIG_KEYS, ...declared, ...plugins.map((plugin) => plugin.configKeys));
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

/** Error codes of a response whose client went away while its body was sent. */
const CLIENT_GONE: ReadonlySet<string> = new Set(["ERR_STREAM_PREMATURE_CLOSE", "ECONNRESET", "EPIPE"]);

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

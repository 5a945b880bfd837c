import type { Server } from "node:http";
import Koa from "koa";
import { buildRouteTable } from "routing-kernel";
import { appFolderOf } from "./app-folder.js";
import { loadConfig } from "./config.js";
import { checkDevToolsConfig, devToolsBindWarning } from "./dev-access/index.js";
import { loadViewModules } from "./discovery.js";
import { createDispatch } from "./dispatch.js";
import { setDriverRoot } from "./driver-location.js";
import { E_HOST_STARTED, E_MOUNT_UNGUARDED, E_PORT_IN_USE } from "./errors.js";
import { mountLayer, routePhase, staticFolders, useChain } from "./host-chain.js";
import { checkConfigKeys, logFieldsOf, templateLocals } from "./host-setup.js";
import type { Host, HostOptions, MountedApp } from "./host-types.js";
import { installContextForwarders } from "./context-accessors.js";
import { createLogger, installContextLogger } from "./logger.js";
import { Router } from "./koa-router.js";
import { checkMount, mountPrefix, type MountParent } from "./mounts.js";
import { nodeHttp } from "./node-http.js";
import { openApiPlugin } from "./openapi/plugin.js";
import type { HostRuntime, PhaseContext } from "./plugin.js";
import { orderPlugins } from "./plugin-order.js";
import { installTrustProxy, koaProxyOptions, peerTrust } from "./production/trust-proxy.js";
import { productionSettings } from "./production/settings.js";
import { createRouteMatcher } from "./route-lookup.js";
import { upgradeListener } from "./upgrade.js";

// The types stay importable from the module that builds them.
export type { Host, HostOptions, MountedApp, ResponderSetup } from "./host-types.js";

/**
 * Builds an app: resolves config, discovers view modules, commits the route table, orders and sets
 * plugins up, builds the responder, then the chain phase by phase (see `HOST_PHASES` and
 * `host-chain.ts`). Nothing here is repeated per request.
 */
export async function createHost(options: HostOptions): Promise<Host> {
  const config = await loadConfig(options.root, {
    ...options.config,
    // The prefix the app that mounts it gives wins over its own config key.
    ...(options.basePath !== undefined ? { basePath: options.basePath } : {}),
  });
  // The app's drivers (database, Redis, mail...) resolve from its folder, not the framework's.
  setDriverRoot(appFolderOf(config.root));
  const modules = options.modules ?? (await loadViewModules(config.root, options.viewModules));
  const table = buildRouteTable({ conventions: options.conventions, modules });
  const production = productionSettings(config);
  checkDevToolsConfig(config);
  // The OpenAPI document is a plugin like the others, last: its answers come after the app's routes.
  const plugins = orderPlugins([
    ...(typeof options.plugins === "function" ? await options.plugins(config) : (options.plugins ?? [])),
    openApiPlugin(),
  ]);
  // Made once the plugins are known: their log fields (a request's trace) join every line.
  const logger = options.logger ?? createLogger(config, "app", logFieldsOf(plugins));
  checkConfigKeys(config, options.configKeys, plugins);
  // The app's prefix, decided with the config (without its trailing slash), so plugins read it there too.
  const basePath = config.basePath ?? "";
  // Matching needs only the route table: made now, the runtime the plugins are set up with looks
  // routes up through it; the dispatcher, built from their route phases after their setup, shares it.
  const matcher = createRouteMatcher(table, basePath);
  const mounts: MountedApp[] = [];
  const mountedRuntimes: { prefix: string; runtime: HostRuntime }[] = [];
  const runtime: HostRuntime = Object.freeze({
    config,
    logger,
    table,
    plugins,
    basePath,
    mounts: mountedRuntimes,
    lookupRoute: matcher.lookup,
    fromTrustedProxy: peerTrust(production.trustProxy),
  });
  const pluginContext = { config, logger, table, basePath, runtime };
  for (const plugin of plugins) await plugin.setup?.(pluginContext);
  // trustProxy as a number believes that many X-Forwarded-For entries from the right (the balancer's own);
  // as addresses, the forwarded headers only on a connection from one of them.
  const koa = new Koa({ keys: [config.secretKey], ...koaProxyOptions(production.trustProxy) });
  installContextForwarders(koa.context);
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

  const locals = templateLocals(config, table, basePath, plugins);
  const responder = await options.responder({ config, logger, table, basePath, locals });
  const context: PhaseContext = { ...pluginContext, responder };
  const router = new Router();
  const dispatcher = createDispatch(matcher, table, {
    respond: (route) => responder.prepare(route),
    routeMiddleware: routePhase(plugins, "route"),
    preflight: routePhase(plugins, "preflight"),
  });
  const folders = staticFolders(plugins, context);
  useChain(koa, { plugins, context, production, folders, dispatcher, router, mounts });
  const mountParent: MountParent = { table, staticPrefixes: folders.map((folder) => folder.prefix), mounts };

  let started = false;
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
      if (!handler) {
        if (mounts.length > 0) koa.middleware.unshift(mountLayer(mounts));
        handler = koa.callback();
      }
      return handler;
    },
    upgradeListener() {
      // This app's claimed paths and those of the apps mounted in it (the mount layer forwards them).
      const owners = [runtime, ...mountedRuntimes.map((mounted) => mounted.runtime)];
      const paths = owners.flatMap((owner) => owner.plugins.flatMap((plugin) => plugin.upgradePaths?.() ?? []));
      return upgradeListener(paths, host.callback());
    },
    async listen(port = 0, hostname = "127.0.0.1") {
      const listening = nodeHttp.createServer(host.callback());
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

/** Error codes of a response whose client went away while its body was sent. */
const CLIENT_GONE: ReadonlySet<string> = new Set(["ERR_STREAM_PREMATURE_CLOSE", "ECONNRESET", "EPIPE"]);

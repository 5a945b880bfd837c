import { realpathSync } from "node:fs";
import { basename, dirname } from "node:path";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { loadAppDefinition } from "@fwkit/koa-host/operations";
import { preloadBeforeTypeScript } from "@fwkit/koa-host/operations";
import { E_PORT_IN_USE } from "@fwkit/koa-host";
import type { Host } from "@fwkit/koa-host";
import { nodeHttp, runtimeOf } from "@fwkit/koa-host/plugin";
import { checkReadiness, type Readiness } from "@fwkit/koa-host/operations";
import { markDraining } from "@fwkit/koa-host/operations";
import { productionSettings, type ProductionSettings } from "@fwkit/koa-host/operations";
import { holdRelease } from "./release-holders.js";
import { RELEASE_ID, RELEASES_DIR } from "./releases.js";
import { stopAccepting } from "./stop-accepting.js";

/** What one serving process (a cluster worker, or the only process with `--workers 1`) is told. */
export interface ServerOptions {
  /** The folder holding `app.js` (the build) or `app.ts` (the sources). */
  readonly appRoot: string;
  readonly appName?: string;
  readonly port: number;
  readonly host: string;
  /** True when `appRoot` is a build: plain JavaScript, no TypeScript loader. */
  readonly built: boolean;
  /** The framework entry to import before the TypeScript loader (see preloadBeforeTypeScript). */
  readonly preload?: string;
}

/** A serving process's app and server; `shutdown()` drains and closes them. */
export interface ProductionServer {
  readonly host: Host;
  readonly server: Server;
  readonly settings: ProductionSettings;
  readonly url: string;
  /** Readiness when it started listening: a rolling restart stops at a new worker that is not ready. */
  readonly bootReadiness: Readiness;
  /** Idempotent graceful stop: see {@link startProductionServer}. */
  shutdown(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off("listening", onListening);
      reject(error.code === "EADDRINUSE" ? new E_PORT_IN_USE(`${host}:${port}`) : error);
    };
    const onListening = () => {
      server.off("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}

/**
 * Builds the app and listens. `shutdown()` is the graceful stop every signal leads to: readiness
 * turns 503 and responses carry `Connection: close` (the balancer drains this process), the server
 * stops accepting, idle keep-alive connections close, requests in flight get the grace period
 * (`shutdownGrace`) to finish before their connections are cut, then every plugin closes its
 * database pools, Redis clients and timers.
 */
export async function startProductionServer(options: ServerOptions): Promise<ProductionServer> {
  if (options.preload && !options.built) preloadBeforeTypeScript(options.preload);
  // The release `current` points to now: a worker started after a release switched (a crash
  // replacement, a rolling restart) serves the new one, the others keep theirs until replaced.
  const appRoot = realpathSync(options.appRoot);
  // Serving from a release: recorded in it, so pruning leaves it alone while this process lives.
  const held =
    basename(dirname(appRoot)) === RELEASES_DIR && RELEASE_ID.test(basename(appRoot))
      ? holdRelease(appRoot)
      : undefined;
  const definition = await loadAppDefinition(appRoot, options.appName, { typescript: !options.built });
  const host = await definition.create();
  const settings = productionSettings(host.config);
  const server = nodeHttp.createServer(host.callback());
  // WebSocket handshakes on the paths a battery claims (realtime), through the app's middleware too.
  const upgrades = host.upgradeListener();
  if (upgrades) server.on("upgrade", upgrades);
  // Requests in flight, so the ones the grace period cuts are logged (one Set entry each).
  const inFlight = new Set<ServerResponse>();
  server.on("request", (_req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(res);
    res.on("close", forget);
  });
  function forget(this: ServerResponse) {
    inFlight.delete(this);
  }
  // Longer than a balancer's idle timeout, so the balancer (not Node) closes idle connections and
  // never sends a request on a connection Node is closing at that instant.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  try {
    await listen(server, options.port, options.host);
  } catch (error) {
    await host.close();
    throw error;
  }
  const readiness = await checkReadiness(runtimeOf(host.koa.context).plugins, settings.readyTimeoutMs);
  if (!readiness.ready) {
    host.logger.warn({ failing: readiness.failing }, "started unready: /readyz answers 503 until these answer");
  }
  let stopping: Promise<void> | undefined;
  const shutdown = () =>
    (stopping ??= (async () => {
      markDraining();
      // Idle keep-alive connections stay open a moment: a proxy may be sending on one right now.
      const closed = stopAccepting(server, settings.shutdownGraceMs);
      const cut = setTimeout(() => {
        for (const res of inFlight) {
          if (res.writableEnded) continue;
          const reqId = res.getHeader(settings.requestIdHeader);
          host.logger.warn(
            { reqId, method: res.req.method, path: res.req.url?.split("?")[0], graceMs: settings.shutdownGraceMs },
            `request cut at shutdown: ${res.req.method} ${res.req.url?.split("?")[0]} was still running when the grace period (shutdownGrace) ended`,
          );
        }
        server.closeAllConnections();
      }, settings.shutdownGraceMs);
      cut.unref();
      await closed;
      clearTimeout(cut);
      await host.close();
      held?.release();
    })());
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return { host, server, settings, url: `http://${options.host}:${port}`, bootReadiness: readiness, shutdown };
}

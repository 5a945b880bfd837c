import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { servesBundledModules } from "@fwkit/battery-kit/host";
import { findAppEntry } from "@fwkit/koa-host/operations";
import { preloadedModule, tsxImportArgument } from "@fwkit/koa-host/operations";
import { E_APP_NOT_FOUND } from "@fwkit/koa-host/operations";
import { E_BUILD_FAILED, E_RELEASE, E_START_OPTION } from "../errors.js";
import { runPrimary, type Primary, type PrimaryLog } from "./primary.js";
import { builtAppFolder } from "./built-folder.js";
import { CURRENT_LINK, currentRelease } from "./releases.js";
import { primaryLog } from "./start-log.js";
import { startProductionServer, type ProductionServer, type ServerOptions } from "./server.js";
import { listenNote } from "./listen-address.js";

/** Options of {@link startApp} (the `start` command's flags). */
export interface StartOptions {
  readonly root: string;
  readonly appName?: string;
  /** Worker processes: default the number of CPUs; 1 serves in this process without cluster. */
  readonly workers?: number;
  readonly port?: number;
  /** Default 0.0.0.0: in production the app is reached from the balancer's host or container. */
  readonly host?: string;
  /** The build folder under the root (default `build`). */
  readonly buildDir?: string;
  /** Where status lines, warnings and failures go (default: the JSON logger of the start process). */
  readonly log?: PrimaryLog;
  /** Why the build's server bundle does not serve, logged as a warning (the executable decides before loading this). */
  readonly bundleSkipped?: string;
  /** Install SIGTERM/SIGINT/SIGHUP handlers that exit the process (default true; tests pass false). */
  readonly handleSignals?: boolean;
}

/** A started app: one in-process server (`--workers 1`) or a cluster primary. */
export type Started =
  | { readonly kind: "single"; readonly server: ProductionServer }
  | { readonly kind: "cluster"; readonly primary: Primary };

/** Checks the start flags; each wrong one is an E_START_OPTION naming the flag. */
export function checkStartOptions(options: Pick<StartOptions, "workers" | "port" | "host">): {
  workers: number;
  port: number;
  host: string;
} {
  const workers = options.workers ?? availableParallelism();
  if (!Number.isInteger(workers) || workers < 1)
    throw new E_START_OPTION("--workers", "a whole number of 1 or more", options.workers);
  const port = options.port ?? 5000;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new E_START_OPTION("--port", "a whole number from 0 to 65535", options.port);
  const host = options.host ?? "0.0.0.0";
  if (host.trim() === "")
    throw new E_START_OPTION("--host", "an address such as 0.0.0.0 or 127.0.0.1", JSON.stringify(host));
  return { workers, port, host };
}

/**
 * Where `start` runs the app from: the `current` release link when there is one (the release
 * commands), else `<root>/build` when it holds `app.js` (plain JavaScript, no
 * TypeScript loader), the root itself when it is a build (`app.js`, no `app.ts`), else the sources through tsx with a warning. A `build/` without `app.js` is
 * an error: a half-written build must not be served.
 */
export function locateApp(root: string, buildDir = "build"): { appRoot: string; built: boolean; warning?: string } {
  // Releases first: `current` is followed by each worker as it starts (see startProductionServer).
  const current = currentRelease(root);
  if (current !== undefined && !existsSync(join(root, CURRENT_LINK, "app.js")))
    throw new E_RELEASE(
      `${join(root, CURRENT_LINK)} points to ${current}, which holds no app.js; run the rollback command or release again`,
    );
  const built = builtAppFolder(root, buildDir);
  if (built !== undefined) return { appRoot: built, built: true };
  const build = join(root, buildDir);
  if (existsSync(build)) throw new E_BUILD_FAILED(`${build} holds no app.js; run the build command again`);
  if (!findAppEntry(root))
    throw new E_APP_NOT_FOUND(
      root,
      "there is no app.ts and no build/app.js; run the init command of your framework first, or pass --root",
    );
  return {
    appRoot: root,
    built: false,
    warning: `warning: no build found (${join(buildDir, "app.js")}): serving the TypeScript sources through tsx. Run the build command before deploying; production should not compile at start-up.`,
  };
}

/**
 * The Node flags of the cluster's workers: the primary's, plus tsx's loader when the sources are
 * served: this process may have registered tsx through its API (the framework's executable does),
 * which a forked worker does not inherit, only its flags, so the loader goes in as a flag.
 */
function workerExecArgv(built: boolean): string[] {
  if (built || process.execArgv.join(" ").includes("tsx")) return process.execArgv;
  return [...process.execArgv, tsxImportArgument()];
}

// The worker program: the server bundle's worker when the build has one (see server-bundle/worker.ts).
const workerFile = () =>
  fileURLToPath(new URL(`./server-bundle/worker${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`, import.meta.url));

/**
 * `start`: serves an app in production. APP_ENV defaults to production (the secret key rule then
 * holds), the host to 0.0.0.0, the workers to the number of CPUs. SIGTERM/SIGINT drain and exit 0;
 * SIGHUP restarts the workers one at a time (the way to deploy new code without dropping a request).
 */
export async function startApp(options: StartOptions): Promise<Started> {
  const log = options.log ?? primaryLog();
  const print = (line: string) => log.info(line);
  const { workers, port, host } = checkStartOptions(options);
  if (!process.env["APP_ENV"]) process.env["APP_ENV"] = "production";
  // The metrics port listens where the app does unless told otherwise (METRICS_HOST, metrics.host):
  // `start --host 127.0.0.1` keeps its metrics on loopback too. The workers inherit it.
  if (!process.env["METRICS_HOST"]) process.env["METRICS_HOST"] = host;
  const located = locateApp(options.root, options.buildDir);
  if (located.warning) log.warn(located.warning);
  if (options.bundleSkipped)
    log.warn(
      `warning: the build's server bundle does not serve: ${options.bundleSkipped}; serving the build's files instead (a slower start). Build again where the app runs, or build with --no-bundle.`,
    );
  const preload = preloadedModule();
  const serverOptions: ServerOptions = {
    appRoot: located.appRoot,
    ...(options.appName ? { appName: options.appName } : {}),
    port,
    host,
    built: located.built,
    ...(preload ? { preload } : {}),
  };
  const handleSignals = options.handleSignals ?? true;

  if (workers === 1) {
    const server = await startProductionServer(serverOptions);
    // The handlers go in before the line that says the app serves: whoever waits for that line
    // may signal at once, and a signal with no handler yet would kill the process.
    if (handleSignals) {
      const stop = (signal: NodeJS.Signals) => {
        log.info(
          `${signal}: draining: no new connections, requests in flight get up to ${server.settings.shutdownGraceMs / 1000} s`,
          { event: "draining", signal, graceMs: server.settings.shutdownGraceMs },
        );
        void server.shutdown().then(
          () => {
            log.info("drained; exiting with code 0", { event: "exit", exitCode: 0 });
            process.exit(0);
          },
          (error: unknown) => {
            log.error(`error while stopping: ${(error as Error)?.message ?? String(error)}; exiting with code 1`, {
              event: "exit",
              exitCode: 1,
            });
            process.exit(1);
          },
        );
      };
      process.once("SIGTERM", stop);
      process.once("SIGINT", stop);
      process.on("SIGHUP", () =>
        print("SIGHUP: a rolling restart needs --workers 2 or more; restart the process to load new code"),
      );
    }
    print(
      `Serving on ${server.url} in this process (APP_ENV=${server.host.config.env}, no cluster${servesBundledModules() ? ", from the build's server bundle" : ""}), ${listenNote(host)}`,
    );
    return { kind: "single", server };
  }

  // A signal while the workers boot stops them as it would later (with no handler yet, its default
  // action would kill the primary and leave the booting workers to notice on their own).
  const starting = new AbortController();
  const whileStarting = (signal: NodeJS.Signals) => {
    log.info(`${signal} while the workers start: each finishes its boot, drains, then exits`, {
      event: "draining",
      signal,
      workers,
    });
    starting.abort();
  };
  if (handleSignals) {
    process.once("SIGTERM", whileStarting);
    process.once("SIGINT", whileStarting);
  }
  const primary = await runPrimary({
    workers,
    exec: workerFile(),
    execArgv: workerExecArgv(located.built),
    env: { FW_START_OPTIONS: JSON.stringify(serverOptions), APP_ENV: process.env["APP_ENV"]! },
    log,
    stopWhileStarting: starting.signal,
  });
  process.off("SIGTERM", whileStarting);
  process.off("SIGINT", whileStarting);
  if (starting.signal.aborted) {
    const code = await primary.stop();
    log.info(`every worker stopped; exiting with code ${code}`, { event: "exit", exitCode: code });
    process.exit(code);
  }
  if (handleSignals) {
    const stop = (signal: NodeJS.Signals) => {
      const workers = primary.pids().length;
      log.info(`${signal}: draining ${workers} worker(s); each finishes its requests in flight, then exits`, {
        event: "draining",
        signal,
        workers,
      });
      void primary.stop().then((code) => {
        log.info(`every worker stopped; exiting with code ${code}`, { event: "exit", exitCode: code });
        process.exit(code);
      });
    };
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
    process.on("SIGHUP", () => void primary.rollingRestart());
  }
  print(
    `Serving on http://${host}:${port} with ${workers} workers (APP_ENV=${process.env["APP_ENV"]}, pid ${process.pid}; SIGHUP: rolling restart), ${listenNote(host)}`,
  );
  return { kind: "cluster", primary };
}

import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { loadAppDefinition } from "@fwkit/koa-host/operations";
import { refreshTypesQuietly } from "./route-types/refresh.js";
import { preloadedModule, tsxImportArgument } from "@fwkit/koa-host/operations";
import { watchSources, type SourceWatcher } from "./watch.js";

/** Options of {@link serve}. */
export interface ServeOptions {
  readonly root: string;
  readonly port?: number;
  readonly hostname?: string;
  /** Which app of a multi-application codebase. */
  readonly appName?: string;
  /** Restart on source changes (development; default true). */
  readonly reload?: boolean;
  /** Where status lines go (default: console.log). */
  readonly print?: (line: string) => void;
}

/** A running server started by {@link serve}. */
export interface ServeHandle {
  /** Stops the server (and the watcher). */
  stop(): Promise<void>;
  /** Resolves once changes are being watched (at once without reload). */
  readonly watching: Promise<void>;
}

/**
 * Serves an app. With `reload`, the app runs in a child process (TypeScript loaded by tsx, no build
 * step) that is restarted whenever a source file under the root changes; templates are re-read by
 * the template engines in development, so they need no restart. SIGTERM and SIGINT stop cleanly.
 */
export async function serve(options: ServeOptions): Promise<ServeHandle> {
  const port = options.port ?? 5000;
  const hostname = options.hostname ?? "127.0.0.1";
  const print = options.print ?? ((line: string) => console.log(line));
  if (options.reload === false) return serveInProcess(options.root, port, hostname, options.appName, print);

  const childFile = fileURLToPath(
    new URL(`./serve-child${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`, import.meta.url),
  );
  let child: ChildProcess | undefined;
  let stopping = false;
  let restartTimer: NodeJS.Timeout | undefined;

  const start = () => {
    const args = [
      "--root",
      options.root,
      "--port",
      String(port),
      "--host",
      hostname,
      ...(options.appName ? ["--app", options.appName] : []),
    ];
    const preload = preloadedModule();
    // A built child imports the framework first and registers tsx itself (faster start-up); a
    // TypeScript child (the sources, in tests) needs tsx from its first line.
    const current =
      childFile.endsWith(".js") && preload
        ? fork(childFile, [...args, "--preload", preload], {
            execArgv: [],
            env: withoutLoaderFlag(process.env),
            stdio: "inherit",
          })
        : fork(childFile, args, {
            execArgv: [tsxImportArgument()],
            env: { ...process.env, FW_TS_LOADER: "active" },
            stdio: "inherit",
          });
    // A busy port does not go away when a source file is saved: stop, so the command exits non-zero
    // (the child has printed E_PORT_IN_USE, naming --port and PORT).
    current.on("message", (message: { type?: string; code?: string }) => {
      if (message?.type === "failed" && message.code === "E_PORT_IN_USE") void stop().then(() => process.exit(1));
    });
    current.once("exit", (code, signal) => {
      if (child === current) child = undefined;
      if (!stopping && signal !== "SIGTERM" && code !== 0)
        print(`The app stopped (exit ${code ?? signal}); fix the error and save a file to restart.`);
    });
    child = current;
  };
  const stopChild = () =>
    new Promise<void>((resolve) => {
      const current = child;
      if (!current || current.exitCode !== null) return resolve();
      current.once("exit", () => resolve());
      current.kill("SIGTERM");
      setTimeout(() => current.kill("SIGKILL"), 5000).unref();
    });

  // The app starts at once; the watcher's first scan (a few hundred ms on a loaded machine) runs
  // beside it. The one watcher rule (watch.ts) leaves out dependencies, build output, data and .git.
  start();
  let watcher: SourceWatcher | undefined;
  const watching = (async () => {
    try {
      watcher = await watchSources(options.root, (file) => {
        clearTimeout(restartTimer);
        restartTimer = setTimeout(() => {
          print(`Change in ${file}: restarting`);
          void stopChild().then(() => {
            if (!stopping) start();
          });
        }, 150);
      });
      await watcher.ready;
    } catch (error) {
      print(`File watching is unavailable (${(error as Error).message}); serving without reload.`);
    }
  })();

  const stop = async () => {
    stopping = true;
    clearTimeout(restartTimer);
    await watching;
    await watcher?.close();
    await stopChild();
  };
  const onSignal = () => void stop().then(() => process.exit(0));
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
  return { stop, watching };
}

function withoutLoaderFlag(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  delete copy["FW_TS_LOADER"];
  return copy;
}

async function serveInProcess(
  root: string,
  port: number,
  hostname: string,
  appName: string | undefined,
  print: (line: string) => void,
): Promise<ServeHandle> {
  const definition = await loadAppDefinition(root, appName);
  const host = await definition.create();
  // The app's generated route declaration (typed urlFor) follows the routes at every (re)start.
  refreshTypesQuietly(definition.root, host.table, print);
  await host.listen(port, hostname);
  print(`Serving ${definition.name ?? "app"} on http://${hostname}:${port} (APP_ENV=${host.config.env})`);
  const stop = () => host.close();
  const onSignal = () => void stop().then(() => process.exit(0));
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
  return { stop, watching: Promise.resolve() };
}

import { setDriverRoot } from "@fwkit/battery-kit/host";
import { E_START_OPTION } from "../errors.js";
import { startApp } from "./start.js";
import { logStartFailure } from "./start-log.js";
import type { StartArgs } from "./start-line.js";

/**
 * Runs `start` with its arguments read: serves the app's build until a signal (startApp installs
 * the handlers that exit). A refused start logs one JSON line and exits with 1: what the app
 * opened before refusing (a database pool, a Redis client) would otherwise keep the process alive
 * with nothing serving. `bundleSkipped` is why the build's server bundle does not serve, if it has one.
 */
export async function runStart(args: StartArgs, bundleSkipped?: string): Promise<void> {
  try {
    // The app's drivers load from its folder, as for every command.
    setDriverRoot(args.root);
    if (args.jobWorkers !== undefined) {
      if (!Number.isInteger(args.jobWorkers) || args.jobWorkers < 0 || args.jobWorkers > 1000)
        throw new E_START_OPTION("--job-workers", "a whole number from 0 to 1000", args.jobWorkers);
      // Read by the jobs battery in every worker process (cluster workers inherit the environment).
      process.env["JOB_WORKERS"] = String(args.jobWorkers);
    }
    await startApp({
      root: args.root,
      ...(args.app ? { appName: args.app } : {}),
      ...(args.workers !== undefined ? { workers: args.workers } : {}),
      port: args.port,
      host: args.host,
      ...(bundleSkipped ? { bundleSkipped } : {}),
    });
  } catch (error) {
    // One JSON line like the rest of start's output in production; the logger flushes on exit.
    logStartFailure(error);
    process.exit(1);
  }
}

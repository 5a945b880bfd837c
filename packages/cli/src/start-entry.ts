/**
 * @module @fwkit/cli/start
 * What a framework's executable needs to serve a plain `start` line (`start` and its own options)
 * without loading the full command line: yargs, every other command and the generators are about
 * a third of what `start` takes to serve its first request. Any other line goes to the full
 * command line, which reads `start` with the same options ({@link START_OPTIONS}).
 */
import type { StartArgs } from "./production/start-line.js";

export { plainStartLine, START_OPTIONS, type StartArgs, type StartOption } from "./production/start-line.js";
export { runCli } from "./run-cli.js";
export { runExecutable, type FullCommandLine } from "./executable.js";

/**
 * Runs `start` with its arguments read, from the command line's own modules (loaded by the call):
 * the production server until a signal. `bundleSkipped` is why the build's server bundle does not
 * serve, logged as a warning.
 */
export async function runStart(args: StartArgs, bundleSkipped?: string): Promise<void> {
  return (await import("./production/start-command.js")).runStart(args, bundleSkipped);
}

/**
 * @module @fwkit/cli/start
 * What a framework's executable needs to serve a plain `start` line (`start` and its own options)
 * without loading the full command line: yargs, every other command and the generators are about
 * a third of what `start` takes to serve its first request. Any other line goes to the full
 * command line, which reads `start` with the same options ({@link START_OPTIONS}).
 */
export {
  plainStartLine,
  runStart,
  START_OPTIONS,
  type StartArgs,
  type StartOption,
} from "./production/start-command.js";
export { runCli } from "./run-cli.js";
export { runExecutable, type FullCommandLine } from "./executable.js";

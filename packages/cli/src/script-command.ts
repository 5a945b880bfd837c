import type { Argv } from "yargs";
import type { Host } from "@fwkit/koa-host";

/**
 * A command an app defines in `run/scripts.ts`: a yargs command whose handler also receives the
 * built app (config loaded, plugins set up: database connected, models bound).
 */
export interface ScriptCommand<Args = Record<string, unknown>> {
  readonly command: string;
  readonly describe: string;
  readonly builder?: (yargs: Argv) => Argv;
  handler(argv: Args, app: Host): void | Promise<void>;
}

/**
 * Declares app commands with type checking (identity function). Its own entry (`@fwkit/cli/commands`), so
 * an app that imports it does not load the command-line parser.
 */
export function defineCommands(commands: readonly ScriptCommand[]): readonly ScriptCommand[] {
  return commands;
}

import type { Argv } from "yargs";
import type { AppServices, Host } from "@fwkit/koa-host";

/** What an app command gets beside the app: its services, typed (`services.mailer.sendMail(...)`). */
export interface ScriptContext {
  readonly services: AppServices;
}

/**
 * A command an app defines in `run/scripts.ts`: a yargs command whose handler also receives the
 * built app (config loaded, plugins set up: database connected, models bound) and its services.
 */
export interface ScriptCommand<Args = Record<string, unknown>> {
  readonly command: string;
  readonly describe: string;
  readonly builder?: (yargs: Argv) => Argv;
  handler(argv: Args, app: Host, context: ScriptContext): void | Promise<void>;
}

/**
 * Declares app commands with type checking (identity function). Its own entry (`@fwkit/cli/commands`), so
 * an app that imports it does not load the command-line parser.
 */
export function defineCommands(commands: readonly ScriptCommand[]): readonly ScriptCommand[] {
  return commands;
}

import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Argv, CommandModule } from "yargs";
import { E_USER_COMMANDS_LOAD } from "../errors.js";
import type { ScriptCommand } from "../script-command.js";
import { loadAppDefinition } from "./app-definition.js";
import { appTarget } from "./commands.js";
import { registerTypeScript } from "./typescript.js";
import { typedCommand } from "./usage-error.js";

/**
 * Loads the `commands` export of `<root>/run/scripts.ts` (if the file exists) as yargs commands that
 * build the app before running and close it after. A file that fails to load (a syntax error, a
 * throwing import, a `commands` that is not a list) is E_USER_COMMANDS_LOAD naming the file and the
 * cause: a CLI that went on without it would answer "unknown command" for the user's own command.
 */
export async function loadUserCommands(root: string, appName?: string): Promise<CommandModule[]> {
  const file = ["scripts.ts", "scripts.mts", "scripts.js", "scripts.mjs"].map((name) => join(root, "run", name)).find((f) => existsSync(f));
  if (!file) return [];
  await registerTypeScript();
  let module: { commands?: readonly ScriptCommand[] };
  try {
    module = (await import(pathToFileURL(file).href)) as { commands?: readonly ScriptCommand[] };
  } catch (error) {
    throw new E_USER_COMMANDS_LOAD(file, error instanceof Error ? (error.stack ?? error.message) : String(error));
  }
  if (module.commands !== undefined && !Array.isArray(module.commands)) {
    throw new E_USER_COMMANDS_LOAD(file, "its `commands` export must be a list made with defineCommands([...])");
  }
  return (module.commands ?? []).map((script) => ({
    command: script.command,
    describe: script.describe,
    builder: (script.builder ?? ((y: Argv) => y)) as CommandModule["builder"],
    handler: async (argv: Record<string, unknown>) => {
      const definition = await loadAppDefinition(root, appName);
      const host = await definition.create({ config: { logRequests: false, logLevel: "warn" } });
      try {
        await script.handler(argv, host);
      } finally {
        await host.close();
      }
    },
  }));
}

/**
 * The app's own commands for a command line, as both CLIs load them: none for the framework's init
 * command (which makes the app, so must run whatever state the folder is in), otherwise
 * {@link loadUserCommands} of the `--root`/`--app` the line names, failing when they do not load.
 */
export async function userCommandsFor(argv: readonly string[], initCommand: string): Promise<CommandModule[]> {
  if (typedCommand(argv) === initCommand) return [];
  const { root, appName } = appTarget(argv);
  return loadUserCommands(root, appName);
}

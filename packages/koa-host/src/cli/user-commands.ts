import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Argv, CommandModule } from "yargs";
import type { ScriptCommand } from "../script-command.js";
import { loadAppDefinition } from "./app-definition.js";
import { registerTypeScript } from "./typescript.js";

/**
 * Loads the `commands` export of `<root>/run/scripts.ts` (if the file exists) as yargs commands that
 * build the app before running and close it after.
 */
export async function loadUserCommands(root: string, appName?: string): Promise<CommandModule[]> {
  const file = ["scripts.ts", "scripts.mts", "scripts.js", "scripts.mjs"].map((name) => join(root, "run", name)).find((f) => existsSync(f));
  if (!file) return [];
  await registerTypeScript();
  const module = (await import(pathToFileURL(file).href)) as { commands?: readonly ScriptCommand[] };
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

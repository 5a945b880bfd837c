import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Argv, CommandModule } from "yargs";
import { appServicesOf } from "./app-services.js";
import { E_USER_COMMANDS_LOAD } from "./errors.js";
import type { ScriptCommand } from "./script-command.js";
import { loadAppDefinition } from "@fwkit/koa-host/operations";
import { inRole } from "./app-args.js";
import { appTarget } from "./commands.js";
import { locateApp } from "./production/start.js";
import { resolveDevTool } from "@fwkit/koa-host/operations";
import { registerTypeScript } from "@fwkit/koa-host/operations";
import { typedCommand } from "./usage-error.js";

/**
 * Loads the `commands` export of `<root>/run/scripts.ts` (if the file exists) as yargs commands that
 * build the app before running and close it after. A file that fails to load (a syntax error, a
 * throwing import, a `commands` that is not a list) is E_USER_COMMANDS_LOAD naming the file and the
 * cause: a CLI that went on without it would answer "unknown command" for the user's own command.
 */
export async function loadUserCommands(root: string, appName?: string): Promise<CommandModule[]> {
  const found = userCommandsSource(root, typeScriptLoaderInstalled(root));
  if (!found) return [];
  const { file, appRoot, typescript } = found;
  if (typescript) await registerTypeScript(root);
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
      const definition = await loadAppDefinition(appRoot, appName, { typescript });
      // A script runs once: it opens no metrics port (start may hold it).
      const host = await inRole("command", () =>
        definition.create({ config: { logRequests: false, logLevel: "warn" } }),
      );
      try {
        await script.handler(argv, host, { services: appServicesOf(host) });
      } finally {
        await host.close();
      }
    },
  }));
}

const SCRIPT_FILES = ["scripts.ts", "scripts.mts", "scripts.js", "scripts.mjs"];

/** Whether tsx can be found for the app in `root` (a production install has none). */
function typeScriptLoaderInstalled(root: string): boolean {
  try {
    resolveDevTool("tsx/esm/api", "TypeScript loader", root);
    return true;
  } catch {
    return false;
  }
}

/**
 * Which `run/scripts` file gives the app's commands, and the app they run against: the source,
 * through the TypeScript loader; or, where tsx is not installed (a production install, whose
 * devDependencies are left out) and a build exists, the built `build/run/scripts.js` against the
 * built app, so `start` and the user's commands run without tsx. A folder that is itself a build
 * (JavaScript files only) needs no loader either, also where tsx is installed.
 */
export function userCommandsSource(
  root: string,
  tsxInstalled: boolean,
): { file: string; appRoot: string; typescript: boolean } | undefined {
  const find = (dir: string) => SCRIPT_FILES.map((name) => join(dir, "run", name)).find((f) => existsSync(f));
  const file = find(root);
  if (!file) return undefined;
  const typescript = /\.m?ts$/.test(file);
  if (typescript && !tsxInstalled) {
    const build = join(root, "build");
    const built = existsSync(join(build, "app.js")) ? find(build) : undefined;
    if (built) return { file: built, appRoot: build, typescript: false };
  }
  // A folder that is itself a build (app.js, no app.ts) is JavaScript: no loader, tsx installed or not.
  if (!typescript && existsSync(join(root, "app.js")) && !existsSync(join(root, "app.ts"))) {
    return { file, appRoot: root, typescript: false };
  }
  // With tsx installed everything goes through it, as in development (a hand-written scripts.js
  // beside app.ts included).
  return { file, appRoot: root, typescript: typescript || tsxInstalled };
}

/**
 * The app's own commands for a command line, as both CLIs load them: none for the framework's init
 * command (which makes the app, so must run whatever state the folder is in), otherwise
 * {@link loadUserCommands} of the `--root`/`--app` the line names, failing when they do not load.
 * The start command serves a build when there is one (the current release, `build/`, or a folder
 * that is a build): its line takes the commands from that build too, so a start loads no
 * TypeScript and registers no loader, which would otherwise sit in front of every module the
 * built app imports.
 */
export async function userCommandsFor(
  argv: readonly string[],
  initCommand: string,
  startCommand = "start",
): Promise<CommandModule[]> {
  const typed = typedCommand(argv);
  if (typed === initCommand) return [];
  const { root, appName } = appTarget(argv);
  if (typed === startCommand) {
    const served = servedBuild(root);
    if (served) return loadUserCommands(served, appName);
  }
  return loadUserCommands(root, appName);
}

/** The build folder `start` serves from `root`, or undefined when it would serve the sources (or fail, which it reports itself). */
function servedBuild(root: string): string | undefined {
  try {
    const located = locateApp(root);
    return located.built ? located.appRoot : undefined;
  } catch {
    return undefined;
  }
}

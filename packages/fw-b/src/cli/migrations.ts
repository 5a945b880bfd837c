import { migrationCommands, type MigrationCommands } from "data";
import { loadConfig } from "koa-host";
import { registerTypeScript } from "koa-host/cli";
import type { CommandModule } from "yargs";

/** The migration commands of the app in `root`, with its config (`lib/config.ts`, environment). */
export async function appMigrations(root: string): Promise<MigrationCommands> {
  await registerTypeScript();
  const config = await loadConfig(root, { logRequests: false });
  return migrationCommands(config, { typesFrom: "fw-b" });
}

function list(names: readonly string[], none: string, verb: string): void {
  if (names.length === 0) console.log(none);
  for (const name of names) console.log(`${verb} ${name}`);
}

/** `:migrate`, `:rollback [--all]`, `:make-migration NAME` and `:migrations` (status). */
export function migrationCliCommands(rootOf: (args: Record<string, unknown>) => string): CommandModule[] {
  return [
    {
      command: ":migrate",
      describe: "apply pending database migrations (migrations/*.ts)",
      handler: async (args) => {
        const commands = await appMigrations(rootOf(args));
        list(await commands.migrate(), `Nothing to migrate (${commands.url}).`, "applied");
      },
    },
    {
      command: ":rollback",
      describe: "undo the last batch of migrations (--all: every batch)",
      builder: (y) => y.option("all", { type: "boolean", default: false, describe: "undo every batch" }),
      handler: async (args) => {
        const commands = await appMigrations(rootOf(args));
        list(await commands.rollback({ all: Boolean(args["all"]) }), "Nothing to roll back.", "rolled back");
      },
    },
    {
      command: ":make-migration <name>",
      describe: "create migrations/<timestamp>_<name>.ts (create_posts makes a posts table)",
      builder: (y) => y.positional("name", { type: "string", demandOption: true }),
      handler: async (args) => {
        const commands = await appMigrations(rootOf(args));
        console.log(`created ${commands.make(String(args["name"]))}`);
      },
    },
    {
      command: ":migrations",
      describe: "list the migrations and whether each is applied",
      handler: async (args) => {
        const commands = await appMigrations(rootOf(args));
        for (const state of await commands.status()) console.log(`${state.applied ? "[x]" : "[ ]"} ${state.name}`);
      },
    },
  ];
}

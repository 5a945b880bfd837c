import { join } from "node:path";
import { connect, dataConfig, DRAFT_NOTE, isDraftFile, makeMigration, type Knex } from "@fwkit/data";
import { loadConfig, type AppConfig } from "@fwkit/koa-host";
import { registerTypeScript } from "@fwkit/koa-host/cli";
import type { CommandModule } from "yargs";
import { contribSettings } from "../contrib/config.js";
import { setMaintenance } from "../contrib/maintenance/flag.js";
import { migrateAll, migrationStates, rollbackAll } from "../contrib/migrations.js";
import { E_MAINTENANCE_ARGUMENT } from "../errors.js";

/** The app config of `root` (`lib/config.ts`, environment), as the CLI commands read it. */
export async function cliConfig(root: string): Promise<AppConfig> {
  await registerTypeScript();
  return loadConfig(root, { logRequests: false });
}

/** Runs `work` on the app's database, then closes the connection. */
export async function withDatabase<T>(config: AppConfig, work: (knex: Knex) => Promise<T>): Promise<T> {
  const settings = dataConfig(config);
  const db = await connect(settings.dbUrl, { root: settings.root, pool: { min: 0, max: 2 } });
  try {
    return await work(db.knex);
  } finally {
    await db.close();
  }
}

function list(names: readonly string[], none: string, verb: string): void {
  if (names.length === 0) console.log(none);
  for (const name of names) console.log(`${verb} ${name}`);
}

/**
 * `:migrate`, `:rollback [--all]`, `:make-migration NAME`, `:migrations` (status) and
 * `:maintenance on|off`. Migrations are the enabled contrib modules' (first) and the app's
 * `migrations/` files, in one knex history.
 */
export function migrationCliCommands(rootOf: (args: Record<string, unknown>) => string): CommandModule[] {
  const run = async <T>(args: Record<string, unknown>, work: (knex: Knex, config: AppConfig) => Promise<T>): Promise<T> => {
    const config = await cliConfig(rootOf(args));
    return withDatabase(config, (knex) => work(knex, config));
  };
  return [
    {
      command: ":migrate",
      describe: "apply pending database migrations (the contrib modules' and migrations/*.ts)",
      handler: async (args) => {
        await run(args, async (knex, config) => {
          const names = await migrateAll(knex, dataConfig(config).migrationsDir, contribSettings(config));
          list(names, `Nothing to migrate (${String(dataConfig(config).dbUrl).replace(/\/\/[^@/]*@/, "//***@")}).`, "applied");
        });
      },
    },
    {
      command: ":rollback",
      describe: "undo the last batch of migrations (--all: every batch)",
      builder: (y) => y.option("all", { type: "boolean", default: false, describe: "undo every batch" }),
      handler: async (args) => {
        await run(args, async (knex, config) => {
          list(await rollbackAll(knex, dataConfig(config).migrationsDir, contribSettings(config), Boolean(args["all"])), "Nothing to roll back.", "rolled back");
        });
      },
    },
    {
      command: ":make-migration <name>",
      describe: "create migrations/<timestamp>_<name>.ts (create_posts makes a posts table)",
      builder: (y) => y.positional("name", { type: "string", demandOption: true }),
      handler: async (args) => {
        const config = await cliConfig(rootOf(args));
        console.log(`created ${makeMigration(dataConfig(config).migrationsDir, String(args["name"]), { typesFrom: "fw-b" })}`);
      },
    },
    {
      command: ":migrations",
      describe: "list the migrations and whether each is applied",
      handler: async (args) => {
        await run(args, async (knex, config) => {
          for (const state of await migrationStates(knex, dataConfig(config).migrationsDir, contribSettings(config))) {
            const draft = !state.applied && isDraftFile(join(dataConfig(config).migrationsDir, state.name));
            console.log(`${state.applied ? "[x]" : "[ ]"} ${state.name}${draft ? ` ${DRAFT_NOTE}` : ""}`);
          }
        });
      },
    },
    {
      command: ":maintenance <state>",
      describe: "switch maintenance on or off for every process of the app (contrib.maintenance)",
      builder: (y) => y.positional("state", { type: "string", demandOption: true, describe: "on or off" }),
      handler: async (args) => {
        const state = String(args["state"]);
        if (state !== "on" && state !== "off") throw new E_MAINTENANCE_ARGUMENT(state);
        await run(args, async (knex) => {
          await setMaintenance(knex, state === "on");
          console.log(state === "on" ? "Maintenance is on: visitors get the maintenance page (503)." : "Maintenance is off: the site is open.");
        });
      },
    },
  ];
}

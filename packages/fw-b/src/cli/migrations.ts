import { connect, type Knex } from "@fwkit/data";
import { dataConfig, migrationCliCommands, migrationCommands } from "@fwkit/data/plugin";
import type { AppConfig } from "@fwkit/koa-host";
import { commandConfig } from "@fwkit/cli";
import type { CommandModule } from "yargs";
import { contribSettings } from "../contrib/config.js";
import { setMaintenance } from "../contrib/maintenance/flag.js";
import { contribMigrations } from "../contrib/migrations.js";
import { E_MAINTENANCE_ARGUMENT } from "../errors.js";

/** Runs `work` on the app's database, then closes the connection. */
export async function withDatabase<T>(config: AppConfig, work: (knex: Knex) => Promise<T>): Promise<T> {
  const settings = dataConfig(config);
  const db = await connect(settings.dbUrl, { root: settings.appDir, pool: { min: 0, max: 2 } });
  try {
    return await work(db.knex);
  } finally {
    await db.close();
  }
}

/**
 * The data battery's migration commands under fw-b's names (`:migrate`, `:rollback [--all]`,
 * `:make-migration NAME`, `:migrations`), the enabled contrib modules' migrations shipped first
 * in one knex history with the app's `migrations/` files, and `:maintenance on|off`.
 */
export function databaseCliCommands(rootOf: (args: Record<string, unknown>) => string): CommandModule[] {
  const run = async <T>(
    args: Record<string, unknown>,
    work: (knex: Knex, config: AppConfig) => Promise<T>,
  ): Promise<T> => {
    const config = await commandConfig(rootOf(args));
    return withDatabase(config, (knex) => work(knex, config));
  };
  const open = async (args: Record<string, unknown>) => {
    const config = await commandConfig(rootOf(args));
    return migrationCommands(config, { typesFrom: "fw-b", shipped: contribMigrations(contribSettings(config)) });
  };
  return [
    ...(migrationCliCommands(
      { migrate: ":migrate", rollback: ":rollback", make: ":make-migration", status: ":migrations" },
      open,
    ) as CommandModule[]),
    {
      command: ":maintenance <state>",
      describe: "switch maintenance on or off for every process of the app (contrib.maintenance)",
      builder: (y) => y.positional("state", { type: "string", demandOption: true, describe: "on or off" }),
      handler: async (args) => {
        const state = String(args["state"]);
        if (state !== "on" && state !== "off") throw new E_MAINTENANCE_ARGUMENT(state);
        await run(args, async (knex) => {
          await setMaintenance(knex, state === "on");
          console.log(
            state === "on"
              ? "Maintenance is on: visitors get the maintenance page (503)."
              : "Maintenance is off: the site is open.",
          );
        });
      },
    },
  ];
}

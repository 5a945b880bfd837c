import type { BatteryPlugins } from "@fwkit/app-kit";
import type { Knex } from "@fwkit/data";
import type { PluginContext } from "@fwkit/koa-host/plugin";
import { E_CONTRIB_CONFIG, E_CONTRIB_NOT_MIGRATED, E_ROLE_WITHOUT_AUTH } from "../errors.js";
import type { ContribSettings } from "./config.js";
import { migrateAll } from "./migrations.js";
import { CONTRIB_TABLES, type ContribModels } from "./models.js";
import { ROLE_TAG } from "./roles.js";

/**
 * The contrib modules' start-up: roles need the login manager; the modules that keep data bind
 * their models to the database, apply pending migrations (the contrib modules' with the app's, when
 * `autoMigrate`), and refuse to start while one of their tables is missing.
 */
export async function setUpContrib(
  context: PluginContext,
  options: {
    readonly settings: ContribSettings;
    readonly batteries: BatteryPlugins;
    readonly models: ContribModels & { bind(knex: Knex): void };
    readonly migrate: boolean;
  },
): Promise<void> {
  const { settings, batteries } = options;
  const tagged = context.table.routes.find((route) => route.tags[ROLE_TAG] !== undefined);
  if (tagged && !settings.auth && !batteries.security) throw new E_ROLE_WITHOUT_AUTH(`${tagged.id}()`);
  if (!settings.usesDatabase && !options.migrate) return;
  if (!batteries.data) {
    if (settings.usesDatabase)
      throw new E_CONTRIB_CONFIG(
        "batteries.data",
        "contrib.auth, contact and maintenance keep their data in the database; keep the data battery on",
      );
    return;
  }
  const knex = batteries.data.database.knex;
  options.models.bind(knex);
  if (options.migrate) {
    const { heldMessage, holdsDrafts } = await import("@fwkit/data/plugin");
    // Drafts (files still as :make-migration or :resource wrote them) wait until they are edited
    // (but on a database in memory, the tests').
    const applied = await migrateAll(knex, batteries.data.settings.migrationsDir, settings, {
      holdDrafts: holdsDrafts(knex),
      // Info, not a warning: the dev server shows it; a user command (logged at warn) need not.
      onHeld: (held) => context.logger.info({ migrations: held }, heldMessage(held)),
    });
    if (applied.length > 0) context.logger.info({ migrations: applied }, "migrations applied");
  }
  const needed = [
    ...(settings.auth ? [CONTRIB_TABLES.users, CONTRIB_TABLES.tokens] : []),
    ...(settings.oauth ? [CONTRIB_TABLES.oauthAccounts] : []),
    ...(settings.contact ? [CONTRIB_TABLES.contactMessages] : []),
    ...(settings.maintenance ? [CONTRIB_TABLES.settings] : []),
  ];
  for (const table of needed) if (!(await knex.schema.hasTable(table))) throw new E_CONTRIB_NOT_MIGRATED(table);
}

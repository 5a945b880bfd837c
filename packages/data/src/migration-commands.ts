/**
 * The four migration commands as plain async functions over an app config, each opening and
 * closing its own connection; `migration-cli.ts` turns them into both frameworks' CLI commands.
 */
import { join } from "node:path";
import { dataConfig, type DataConfigInput } from "./config.js";
import type { Knex } from "knex";
import { connect } from "./connection.js";
import { maskDbUrl } from "./db-url.js";
import { makeMigration, type MakeMigrationOptions } from "./make-migration.js";
import { isDraftFile } from "./migration-drafts.js";
import { migrate, migrationStatus, rollback, type MigrationOptions, type MigrationState } from "./migrations.js";

/** What the CLIs call. */
export interface MigrationCommands {
  /** Applies pending migrations; returns their names. */
  migrate(): Promise<string[]>;
  /** Undoes the last batch (every batch with `all`); returns the names undone. */
  rollback(options?: { all?: boolean }): Promise<string[]>;
  /** Creates `<migrationsDir>/<timestamp>_<name>.ts`; returns its path. */
  make(name: string): string;
  /** Every migration with its applied state; `draft`: a pending file not edited since it was made. */
  status(): Promise<Array<MigrationState & { readonly draft: boolean }>>;
  /** The folder migrations are read from and written to. */
  readonly dir: string;
  /** The database URL used, password masked. */
  readonly url: string;
}

/**
 * Migration commands for an app config (`root`, `dbUrl`/`DB_URL`, `migrationsDir`).
 * `typesFrom` names the module new migrations import the Knex type from (the framework).
 */
export function migrationCommands(
  config: DataConfigInput,
  options: MigrationOptions & Pick<MakeMigrationOptions, "typesFrom" | "template"> = {},
): MigrationCommands {
  const settings = dataConfig(config);
  const withDb = async <T>(work: (knex: Knex) => Promise<T>): Promise<T> => {
    const db = await connect(settings.dbUrl, { root: settings.appDir, pool: { min: 0, max: 2 } });
    try {
      return await work(db.knex);
    } finally {
      await db.close();
    }
  };
  return {
    dir: settings.migrationsDir,
    url: maskDbUrl(settings.dbUrl),
    migrate: () => withDb((knex) => migrate(knex, settings.migrationsDir, options)),
    rollback: (rollbackOptions = {}) =>
      withDb((knex) => rollback(knex, settings.migrationsDir, { ...options, ...rollbackOptions })),
    status: () =>
      withDb(async (knex) =>
        (await migrationStatus(knex, settings.migrationsDir, options)).map((state) => ({
          ...state,
          draft: !state.applied && state.file !== undefined && isDraftFile(join(settings.migrationsDir, state.file)),
        })),
      ),
    make: (name) => makeMigration(settings.migrationsDir, name, options),
  };
}

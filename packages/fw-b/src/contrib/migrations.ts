import { dateColumn, modelTimestamps, type Knex } from "@fwkit/data";
import type { ShippedMigration } from "@fwkit/data/plugin";
import type { ContribSettings } from "./config.js";
import { CONTRIB_TABLES } from "./models.js";

// The data battery's migration runner: imported by the first migration or readiness check that
// has contrib migrations to look at, so an app without contrib tables never loads it.
let runner: typeof import("@fwkit/data/plugin") | undefined;
const migrations = async () => (runner ??= await import("@fwkit/data/plugin"));

/** A migration shipped with a contrib module. */
type ContribMigration = ShippedMigration;

const T = CONTRIB_TABLES;

const AUTH: readonly ContribMigration[] = [
  {
    name: "fw-b/contrib/auth/20240101000001_create_fwb_users",
    async up(knex) {
      await knex.schema.createTable(T.users, (table) => {
        table.increments("id");
        table.string("username", 32).notNullable().unique();
        table.string("email", 254).notNullable().unique();
        table.string("name", 100).notNullable().defaultTo("");
        table.string("password_hash", 255).nullable();
        table.string("role", 32).notNullable().defaultTo("member");
        table.boolean("active").notNullable().defaultTo(true);
        dateColumn(table, "email_verified_at").nullable();
        table.string("locale", 20).nullable();
        dateColumn(table, "last_login_at").nullable();
        modelTimestamps(table, { softDelete: true });
      });
      await knex.schema.createTable(T.tokens, (table) => {
        table.increments("id");
        table.integer("user_id").unsigned().notNullable().references("id").inTable(T.users).onDelete("CASCADE");
        table.string("kind", 16).notNullable();
        table.string("token_hash", 64).notNullable().unique();
        table.string("email", 254).nullable();
        dateColumn(table, "expires_at").notNullable();
        dateColumn(table, "used_at").nullable();
        modelTimestamps(table);
        table.index(["user_id", "kind"]);
      });
    },
    async down(knex) {
      await knex.schema.dropTable(T.tokens);
      await knex.schema.dropTable(T.users);
    },
  },
];

const OAUTH: readonly ContribMigration[] = [
  {
    name: "fw-b/contrib/oauth/20240101000002_create_fwb_oauth_accounts",
    async up(knex) {
      await knex.schema.createTable(T.oauthAccounts, (table) => {
        table.increments("id");
        table.integer("user_id").unsigned().notNullable().references("id").inTable(T.users).onDelete("CASCADE");
        table.string("provider", 32).notNullable();
        table.string("subject", 255).notNullable();
        table.string("email", 254).nullable();
        modelTimestamps(table);
        table.unique(["provider", "subject"]);
      });
    },
    async down(knex) {
      await knex.schema.dropTable(T.oauthAccounts);
    },
  },
];

const CONTACT: readonly ContribMigration[] = [
  {
    name: "fw-b/contrib/contact/20240101000003_create_fwb_contact_messages",
    async up(knex) {
      await knex.schema.createTable(T.contactMessages, (table) => {
        table.increments("id");
        table.string("name", 100).notNullable();
        table.string("email", 254).notNullable();
        table.string("subject", 150).notNullable();
        table.text("message").notNullable();
        table.integer("user_id").unsigned().nullable();
        dateColumn(table, "read_at").nullable();
        modelTimestamps(table);
      });
    },
    async down(knex) {
      await knex.schema.dropTable(T.contactMessages);
    },
  },
];

const MAINTENANCE: readonly ContribMigration[] = [
  {
    name: "fw-b/contrib/maintenance/20240101000004_create_fwb_settings",
    async up(knex) {
      await knex.schema.createTable(T.settings, (table) => {
        table.string("key", 64).primary();
        table.string("value", 255).notNullable();
        dateColumn(table, "updated_at").notNullable();
      });
    },
    async down(knex) {
      await knex.schema.dropTable(T.settings);
    },
  },
];

/** The migrations of the enabled contrib modules, in the order they must run. */
export function contribMigrations(settings: ContribSettings): readonly ContribMigration[] {
  return [
    ...(settings.auth ? AUTH : []),
    ...(settings.oauth ? OAUTH : []),
    ...(settings.contact ? CONTACT : []),
    ...(settings.maintenance ? MAINTENANCE : []),
  ];
}

/**
 * Applies every pending contrib and app migration (the data battery's `migrate` with the enabled
 * modules' migrations shipped first); returns the names applied. With `holdDrafts` (start-up
 * migration), the app's first pending draft and the files after it wait; `onHeld` hears which.
 */
export async function migrateAll(
  knex: Knex,
  dir: string,
  settings: ContribSettings,
  options: { readonly holdDrafts?: boolean; readonly onHeld?: (names: readonly string[]) => void } = {},
): Promise<string[]> {
  return (await migrations()).migrate(knex, dir, { ...options, shipped: contribMigrations(settings) });
}

/**
 * The enabled modules' migrations not applied yet (readiness: `contribMigrations` in `/readyz`),
 * matched against the history table by the data battery's own rule.
 */
export async function pendingContribMigrations(knex: Knex, dir: string, settings: ContribSettings): Promise<string[]> {
  const shipped = contribMigrations(settings);
  if (shipped.length === 0) return [];
  const names = new Set(shipped.map((migration) => migration.name));
  const { pendingMigrations } = runner ?? (await migrations());
  return (await pendingMigrations(knex, dir, { shipped })).filter((name) => names.has(name));
}

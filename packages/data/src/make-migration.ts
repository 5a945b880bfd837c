/**
 * Creating migration files: `<UTC timestamp>_<name>.ts` from a template, so files sort in the
 * order they were made. Backs `fw-a db:make NAME` and `fw-b :make-migration NAME`.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { E_BAD_MIGRATION_NAME, E_MIGRATION_EXISTS } from "./errors.js";
import { markDraft } from "./migration-drafts.js";

/** Options of {@link makeMigration}. */
export interface MakeMigrationOptions {
  /** Module the template imports the `Knex` type from (an app depends on its framework, not on knex). Default "knex". */
  readonly typesFrom?: string;
  /** Replaces the whole template; `{{name}}`, `{{table}}`, `{{column}}` and `{{typesFrom}}` are filled in. */
  readonly template?: string;
  /** The time stamped into the file name. Default now. */
  readonly now?: Date;
}

/** The default migration template: a table with the columns models expect. */
export const MIGRATION_TEMPLATE = `import type { Knex } from "{{typesFrom}}";

/** {{name}} */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("{{table}}", (table) => {
    table.increments("id");
    // Dates: millisecond precision, UTC in every dialect.
    table.datetime("created_at", { precision: 3 }).notNullable();
    table.datetime("updated_at", { precision: 3 }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("{{table}}");
}
`;

/** `add_<column>_to_<table>`: adds a (nullable text) column; its down drops it. */
const ADD_COLUMN_TEMPLATE = `import type { Knex } from "{{typesFrom}}";

/** {{name}} */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("{{table}}", (table) => {
    table.string("{{column}}").nullable(); // choose the column's type: integer, boolean, text...
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("{{table}}", (table) => {
    table.dropColumn("{{column}}");
  });
}
`;

/** `remove_<column>_from_<table>`: drops a column; its down adds it back (as text: say its type). */
const REMOVE_COLUMN_TEMPLATE = `import type { Knex } from "{{typesFrom}}";

/** {{name}} */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("{{table}}", (table) => {
    table.dropColumn("{{column}}");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("{{table}}", (table) => {
    table.string("{{column}}").nullable(); // the type it had
  });
}
`;

/** Any other name: the change is yours to write. */
const CHANGE_TEMPLATE = `import type { Knex } from "{{typesFrom}}";

/** {{name}} */
export async function up(knex: Knex): Promise<void> {
  // e.g. await knex.schema.alterTable("posts", (table) => { table.index(["author_id"]); });
  void knex;
}

export async function down(knex: Knex): Promise<void> {
  // undo what up did
  void knex;
}
`;

/** The template and the names a migration name suggests, Rails' way. */
function planFor(name: string): { template: string; table: string; column: string } {
  const words = name.replace(/-/g, "_");
  const created = /^create_(.+?)(?:_table)?$/.exec(words);
  if (created) return { template: MIGRATION_TEMPLATE, table: created[1]!, column: "" };
  const added = /^add_(.+)_to_(.+?)(?:_table)?$/.exec(words);
  if (added) return { template: ADD_COLUMN_TEMPLATE, table: added[2]!, column: added[1]! };
  const removed = /^remove_(.+)_from_(.+?)(?:_table)?$/.exec(words);
  if (removed) return { template: REMOVE_COLUMN_TEMPLATE, table: removed[2]!, column: removed[1]! };
  return { template: CHANGE_TEMPLATE, table: words, column: "" };
}

/** `20240501123000` for a date, in UTC. */
export function migrationTimestamp(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

/**
 * Writes `<dir>/<timestamp>_<name>.ts` from the template its name suggests (`create_posts`
 * creates posts, `add_author_to_posts` and `remove_summary_from_posts` alter it, any other name
 * gets an empty `up`/`down`), creating `dir`, and returns its path.
 * Names are letters, digits, `_` and `-` (E_BAD_MIGRATION_NAME otherwise); never overwrites
 * (E_MIGRATION_EXISTS). The file is marked as a draft: start-up migration leaves it alone until
 * it is edited (migration-drafts.ts).
 */
export function makeMigration(dir: string, name: string, options: MakeMigrationOptions = {}): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/.test(name)) throw new E_BAD_MIGRATION_NAME(name);
  const folder = resolve(dir);
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `${migrationTimestamp(options.now ?? new Date())}_${name}.ts`);
  if (existsSync(path)) throw new E_MIGRATION_EXISTS(path);
  const plan = planFor(name);
  const source = (options.template ?? plan.template)
    .replaceAll("{{typesFrom}}", options.typesFrom ?? "knex")
    .replaceAll("{{table}}", plan.table)
    .replaceAll("{{column}}", plan.column)
    .replaceAll("{{name}}", name);
  writeFileSync(path, markDraft(source), { flag: "wx" });
  return path;
}

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
  /** Replaces the whole template; `{{name}}`, `{{table}}` and `{{typesFrom}}` are filled in. */
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

/** `20240501123000` for a date, in UTC. */
export function migrationTimestamp(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

/** The table a migration name suggests: `create_posts` -> `posts`. */
function tableFor(name: string): string {
  const match = /^create_(.+?)(?:_table)?$/.exec(name);
  return (match?.[1] ?? name).replace(/-/g, "_");
}

/**
 * Writes `<dir>/<timestamp>_<name>.ts` from the template (creating `dir`) and returns its path.
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
  const source = (options.template ?? MIGRATION_TEMPLATE)
    .replaceAll("{{typesFrom}}", options.typesFrom ?? "knex")
    .replaceAll("{{table}}", tableFor(name))
    .replaceAll("{{name}}", name);
  writeFileSync(path, markDraft(source), { flag: "wx" });
  return path;
}

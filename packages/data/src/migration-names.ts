/**
 * What a migration is called in the history table: its file name without the extension, so the
 * same migration run from the sources (`.ts`) and from a build (`.js`) is one migration. Databases
 * migrated before this rule recorded the file name with its extension; such a record still counts
 * as that migration (and keeps its name, so a rollback removes the right row).
 */
import type { Knex } from "knex";

const EXTENSION = /\.(?:ts|mts|cts|js|mjs|cjs)$/;

/** A migration's name: its file name without the extension (`20240101000000_create_posts`). */
export function migrationName(file: string): string {
  return file.replace(EXTENSION, "");
}

/** The names recorded in the history table, oldest first (none when the table does not exist yet). */
export async function recordedMigrations(knex: Knex, tableName = "knex_migrations"): Promise<string[]> {
  if (!(await knex.schema.hasTable(tableName))) return [];
  return ((await knex(tableName).select("name").orderBy("id")) as { name: string }[]).map((row) => row.name);
}

/**
 * Maps a migration's name to the name its record carries: an old record with the file's
 * extension (`..._create_posts.ts` or `.js`) stands for the migration `..._create_posts`.
 */
export class RecordedNames {
  readonly #byName = new Map<string, string>();

  constructor(recorded: readonly string[]) {
    const exact = new Set(recorded);
    for (const name of recorded) {
      const bare = migrationName(name);
      if (!exact.has(bare) && !this.#byName.has(bare)) this.#byName.set(bare, name);
    }
    for (const name of exact) if (migrationName(name) === name) this.#byName.set(name, name);
  }

  /** The name to look for in (and to delete from) the history table. */
  recordOf(name: string): string {
    return this.#byName.get(name) ?? name;
  }

  /** True when the migration `name` (without extension) has a record, under either spelling. */
  has(name: string): boolean {
    return this.#byName.has(name);
  }

  /** The recorded migrations as names without extension, each once, oldest first. */
  static names(recorded: readonly string[]): string[] {
    return [...new Set(recorded.map(migrationName))];
  }
}

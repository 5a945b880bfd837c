/**
 * Draft migrations: a file still exactly as `db:make` / `:make-migration` wrote it. Start-up
 * migration (`autoMigrate`, on by default in development) never applies one: the development
 * server restarts the moment the file appears, and applying the template then would leave the
 * user's later edits unapplied forever (knex records it as done). The migrate commands apply
 * drafts, since running them is a deliberate act.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Knex } from "knex";
import { dialectOfKnex } from "./connection.js";
import { migrationName, RecordedNames, recordedMigrations } from "./migration-names.js";

const MARK = /^\/\/ fw:draft ([0-9a-f]{16})\b[^\n]*\n?/m;

function fingerprint(source: string): string {
  return createHash("sha256").update(source.replace(/\r\n/g, "\n")).digest("hex").slice(0, 16);
}

/**
 * Appends the draft mark to a new migration's source: a comment carrying a fingerprint of the
 * rest, so any edit (or deleting the line) makes the file a real migration.
 */
export function markDraft(source: string): string {
  return `// fw:draft ${fingerprint(source)} - not applied at start-up until you edit this file (the migrate command applies it as written).\n${source}`;
}

/** The log line of start-up migration when it holds migrations back (the data battery's and fw-b contrib's). */
export function heldMessage(held: readonly string[]): string {
  const after = held.length - 1;
  const waiting =
    after === 0
      ? "it is not applied"
      : `it and the ${after} migration${after === 1 ? "" : "s"} made after it are not applied`;
  return `migration ${held[0] ?? ""} is still the unedited template: ${waiting} at start-up until you edit it (or run the migrate command)`;
}

/** True for a migration source that still carries its draft mark and is unchanged since it was made. */
export function isDraftMigration(source: string): boolean {
  const match = MARK.exec(source);
  if (!match) return false;
  const body = source.slice(0, match.index) + source.slice(match.index + match[0].length);
  return fingerprint(body) === match[1];
}

/** True for a migration file that is still a draft (false when the file does not exist). */
export function isDraftFile(path: string): boolean {
  return existsSync(path) && isDraftMigration(readFileSync(path, "utf8"));
}

/**
 * True when start-up migration should hold drafts back on this database: always, but for a
 * SQLite database in memory (the test environment's), which keeps no record an edit would
 * outdate, so a test run applies a just-generated migration as written.
 */
export function holdsDrafts(knex: Knex): boolean {
  const config = (knex.client as { config?: { connection?: { filename?: unknown } } }).config;
  return !(dialectOfKnex(knex) === "sqlite" && config?.connection?.filename === ":memory:");
}

/** What the status commands print after a pending draft. */
export const DRAFT_NOTE = "(draft: not applied at start-up until edited; the migrate command applies it as is)";

/**
 * The pending migrations of `dir` that start-up migration holds back: the first pending draft
 * and every pending migration after it (so migrations still run in the order they were made).
 * `names` are the folder's migration files in order.
 */
export async function heldMigrations(
  knex: Knex,
  dir: string,
  names: readonly string[],
  tableName = "knex_migrations",
): Promise<string[]> {
  const applied = new RecordedNames(await recordedMigrations(knex, tableName));
  const pending = names.filter((name) => !applied.has(migrationName(name)));
  const first = pending.findIndex((name) => isDraftMigration(readFileSync(join(dir, name), "utf8")));
  return first < 0 ? [] : pending.slice(first);
}

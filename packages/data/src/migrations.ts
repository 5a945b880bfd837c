/**
 * Running an app's migrations (files in its `migrations/` folder exporting `up(knex)` and
 * `down(knex)`) with knex's migrator. Files are loaded with `import()`, whatever the app's
 * package type, so TypeScript migrations work wherever `.ts` imports work (the CLIs run under tsx).
 */
import { forgetColumnKinds } from "./column-kinds.js";
import { existsSync, readdirSync } from "node:fs";
import { extname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Knex } from "knex";
import { E_MIGRATION_LOAD } from "./errors.js";
import { heldMigrations } from "./migration-drafts.js";
import { migrationName, RecordedNames, recordedMigrations } from "./migration-names.js";

/** File extensions read as migrations (declaration files are skipped). */
export const MIGRATION_EXTENSIONS = [".ts", ".mts", ".js", ".mjs"] as const;

/** A migration shipped in code by a package (fw-b's contrib modules), not a file of the app. */
export interface ShippedMigration {
  /** Its unique name in the history table, e.g. `fw-b/contrib/auth/20240101000001_create_fwb_users`. */
  readonly name: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** Options shared by the migration functions. */
export interface MigrationOptions {
  /** The table recording applied migrations. Default "knex_migrations". */
  readonly tableName?: string;
  /**
   * Migrations shipped in code, run before the app's files so the app's may refer to their
   * tables. With them, an applied migration missing from the list (a module switched off later)
   * is no error.
   */
  readonly shipped?: readonly ShippedMigration[];
}

/** Options of {@link migrate}. */
export interface MigrateOptions extends MigrationOptions {
  /**
   * Start-up migration: stop before the first pending draft (a file still as the make command
   * wrote it, see migration-drafts.ts). Default false: the migrate commands apply drafts too.
   */
  readonly holdDrafts?: boolean;
  /** Called with the migrations held back (the first draft and those after it), when there are any. */
  readonly onHeld?: (names: readonly string[]) => void;
}

/** One migration and whether it has been applied. */
export interface MigrationState {
  /** Its name: the file name without extension (a shipped migration's own name). */
  readonly name: string;
  readonly applied: boolean;
  /** Its file in the migrations folder (absent for a shipped one, or an applied one whose file is gone). */
  readonly file?: string;
}

/** Where a migration source reads the names already recorded (to match records made with a file extension). */
export interface MigrationHistory {
  readonly knex: Knex;
  readonly tableName?: string;
}

function isMigrationFile(file: string): boolean {
  return (MIGRATION_EXTENSIONS as readonly string[]).includes(extname(file)) && !/\.d\.[mc]?ts$/.test(file);
}

/** A knex migration source over one folder, importing each file with `import()`. */
export class FolderMigrationSource implements Knex.MigrationSource<string> {
  /** The folder, absolute. */
  readonly dir: string;
  readonly #held: ReadonlySet<string>;
  readonly #history: MigrationHistory | undefined;
  #recorded = new RecordedNames([]);

  /**
   * `held`: pending files to leave out of this run (start-up migration's drafts). `history`: the
   * table whose records made with a file extension still count (read by each `getMigrations`).
   */
  constructor(dir: string, held: Iterable<string> = [], history?: MigrationHistory) {
    this.dir = resolve(dir);
    this.#held = new Set(held);
    this.#history = history;
  }

  /** Migration files in name order (timestamps first, so creation order), without the held ones. */
  async getMigrations(): Promise<string[]> {
    if (this.#history)
      this.#recorded = new RecordedNames(await recordedMigrations(this.#history.knex, this.#history.tableName));
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .filter((file) => isMigrationFile(file) && !this.#held.has(file))
      .sort((a, b) => migrationName(a).localeCompare(migrationName(b)));
  }

  /** The file's name without extension, or the name an older record gave it (with its extension). */
  getMigrationName(file: string): string {
    return this.#recorded.recordOf(migrationName(file));
  }

  async getMigration(file: string): Promise<Knex.Migration> {
    const path = join(this.dir, file);
    let module: Record<string, unknown>;
    try {
      module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    } catch (error) {
      throw new E_MIGRATION_LOAD(path, error instanceof Error ? error.message : String(error));
    }
    const { up, down } = module;
    if (typeof up !== "function" || typeof down !== "function") {
      throw new E_MIGRATION_LOAD(path, "it does not export both up and down functions");
    }
    return { ...module, up: up as Knex.Migration["up"], down: down as NonNullable<Knex.Migration["down"]> };
  }
}

/** A knex migration source of the shipped migrations first, then the files of the app's folder. */
export class ShippedAndFolderMigrationSource implements Knex.MigrationSource<string> {
  readonly #shipped: ReadonlyMap<string, ShippedMigration>;
  readonly #folder: FolderMigrationSource;

  /** `held`: app migration files to leave out of this run (start-up migration's drafts); `history` as for {@link FolderMigrationSource}. */
  constructor(
    dir: string,
    shipped: readonly ShippedMigration[],
    held: Iterable<string> = [],
    history?: MigrationHistory,
  ) {
    this.#shipped = new Map(shipped.map((migration) => [migration.name, migration]));
    this.#folder = new FolderMigrationSource(dir, held, history);
  }

  async getMigrations(): Promise<string[]> {
    return [...this.#shipped.keys(), ...(await this.#folder.getMigrations())];
  }

  getMigrationName(name: string): string {
    return this.#shipped.has(name) ? name : this.#folder.getMigrationName(name);
  }

  async getMigration(name: string): Promise<Knex.Migration> {
    const shipped = this.#shipped.get(name);
    if (shipped) return { up: shipped.up, down: shipped.down };
    return this.#folder.getMigration(name);
  }
}

function config(knex: Knex, dir: string, options: MigrationOptions, held: readonly string[] = []): Knex.MigratorConfig {
  const tableName = options.tableName ?? "knex_migrations";
  const history = { knex, tableName };
  if (!options.shipped) return { migrationSource: new FolderMigrationSource(dir, held, history), tableName };
  return {
    migrationSource: new ShippedAndFolderMigrationSource(dir, options.shipped, held, history),
    tableName,
    disableMigrationsListValidation: true,
  };
}

/**
 * Applies every pending migration of `dir` as one batch (with `holdDrafts`, those before the
 * first draft); returns the names applied (empty when up to date).
 */
export async function migrate(knex: Knex, dir: string, options: MigrateOptions = {}): Promise<string[]> {
  const held = options.holdDrafts
    ? await heldMigrations(knex, resolve(dir), await new FolderMigrationSource(dir).getMigrations(), options.tableName)
    : [];
  if (held.length > 0) options.onHeld?.(held);
  const [, names] = (await knex.migrate.latest(config(knex, dir, options, held))) as [number, string[]];
  forgetColumnKinds(knex);
  return names;
}

/** Undoes the last batch (or, with `all`, every batch); returns the names rolled back. */
export async function rollback(
  knex: Knex,
  dir: string,
  options: MigrationOptions & { all?: boolean } = {},
): Promise<string[]> {
  const [, names] = (await knex.migrate.rollback(config(knex, dir, options), options.all ?? false)) as [
    number,
    string[],
  ];
  forgetColumnKinds(knex);
  return names;
}

/**
 * Every shipped migration (first, in their order), every migration file of `dir` and every applied
 * one whose file is gone (in name order), with its state. Names carry no file extension; a record
 * made with one (`.ts` from the sources, `.js` from a build) counts for the file of either.
 */
export async function migrationStatus(
  knex: Knex,
  dir: string,
  options: MigrationOptions = {},
): Promise<MigrationState[]> {
  const shipped = (options.shipped ?? []).map((migration) => migration.name);
  const files = await new FolderMigrationSource(dir).getMigrations();
  const recorded = await recordedMigrations(knex, options.tableName);
  const done = new RecordedNames(recorded);
  const states: MigrationState[] = files.map((file) => ({
    name: migrationName(file),
    applied: done.has(migrationName(file)),
    file,
  }));
  const known = new Set([...shipped, ...states.map((state) => state.name)]);
  for (const name of RecordedNames.names(recorded)) if (!known.has(name)) states.push({ name, applied: true });
  states.sort((a, b) => a.name.localeCompare(b.name));
  return [...shipped.map((name) => ({ name, applied: done.has(name) })), ...states];
}

/** The names of the migrations not applied yet (shipped and files), in the order they would run. */
export async function pendingMigrations(knex: Knex, dir: string, options: MigrationOptions = {}): Promise<string[]> {
  return (await migrationStatus(knex, dir, options)).filter((state) => !state.applied).map((state) => state.name);
}

/**
 * Seed files: `seeds/*.ts` in the app, each exporting `async function seed({ knex, models, env })`.
 * They run in name order (prefix them `01_users.ts`, `02_notes.ts` to choose), each in its own
 * transaction that every model joins, so a seed that fails leaves nothing half-written.
 */
import { existsSync, readdirSync } from "node:fs";
import { basename, extname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Knex } from "knex";
import { E_SEED_FAILED, E_SEED_LOAD, E_SEED_NOT_FOUND } from "../errors.js";
import type { BaseRow, Model } from "../model-types.js";
import { transaction } from "../transaction.js";

/** The file extensions a seed may have (.ts needs the CLI, which runs under tsx). */
export const SEED_EXTENSIONS: readonly string[] = Object.freeze([".ts", ".mts", ".js", ".mjs"]);

/** What a seed's `seed` function receives. */
export interface SeedContext {
  /** The database, inside this seed's transaction. */
  readonly knex: Knex;
  /** The app's models from lib/models.ts, bound to the database, by export name. */
  readonly models: Readonly<Record<string, Model<BaseRow>>>;
  /** The environment the seeds run in (`development`, `test`, ...). */
  readonly env: string;
}

/** What a seed file exports. */
export type SeedFunction = (context: SeedContext) => Promise<void> | void;

/** Options of {@link runSeeds}. */
export interface RunSeedsOptions {
  /** Run only this seed: its name with or without the extension (`users`, `01_users.ts`). */
  readonly file?: string;
  /** The models given to each seed. */
  readonly models?: Readonly<Record<string, Model<BaseRow>>>;
  /** The environment name given to each seed. Default `development`. */
  readonly env?: string;
}

const isSeedFile = (name: string): boolean =>
  SEED_EXTENSIONS.includes(extname(name)) &&
  !name.endsWith(".d.ts") &&
  !/\.(test|spec)\.[mc]?[jt]s$/.test(name) &&
  !name.startsWith(".");

/** The seed files of `dir` in the order they run (none when the folder does not exist). */
export function listSeeds(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter(isSeedFile).sort();
}

function pick(dir: string, file: string): string[] {
  const all = listSeeds(dir);
  const wanted = basename(file);
  const found = all.find((name) => name === wanted || name.slice(0, -extname(name).length) === wanted);
  if (!found) throw new E_SEED_NOT_FOUND(wanted, dir, all.join(", ") || "(no seed files)");
  return [found];
}

async function loadSeed(path: string): Promise<SeedFunction> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    throw new E_SEED_LOAD(path, error instanceof Error ? error.message : String(error));
  }
  const seed = module["seed"];
  if (typeof seed !== "function") throw new E_SEED_LOAD(path, "it does not export a function named seed");
  return seed as SeedFunction;
}

/**
 * Runs the seeds of `dir` (or only `options.file`) on `knex`, in name order, and returns the
 * names run. A seed that throws rolls back its own writes and stops the run.
 */
export async function runSeeds(knex: Knex, dir: string, options: RunSeedsOptions = {}): Promise<string[]> {
  const names = options.file === undefined ? listSeeds(dir) : pick(dir, options.file);
  const ran: string[] = [];
  for (const name of names) {
    const seed = await loadSeed(join(dir, name));
    try {
      await transaction(knex, (trx) =>
        Promise.resolve(seed({ knex: trx, models: options.models ?? {}, env: options.env ?? "development" })),
      );
    } catch (error) {
      const kept = ran.length > 0 ? ` (the seeds before it are kept: ${ran.join(", ")})` : "";
      const why = error instanceof Error ? error.message : String(error);
      throw Object.assign(new E_SEED_FAILED(`${basename(dir)}/${name}`, why, kept), { cause: error });
    }
    ran.push(name);
  }
  return ran;
}

/**
 * The data package's keys in an app's config, resolved once with their defaults, so the plugin
 * and the CLI commands agree on the database, the migrations folder and the time zone.
 */
import { isAbsolute, resolve } from "node:path";
import { DEFAULT_DB_URL } from "./db-url.js";
import { DEFAULT_DATE_FORMAT } from "./dates.js";

/** The config keys read (any other keys of the app's config are ignored). */
export interface DataConfigInput {
  /** The app root (absolute). */
  readonly root: string;
  /** The app folder a relative SQLite path resolves against (a build's is the folder it was built from); default the root. */
  readonly appDir?: unknown;
  /** Database URL; `DB_URL` in the environment wins (never in `test`). Default `sqlite:data/app.db`. */
  readonly dbUrl?: unknown;
  /**
   * The app's environment: in `test` the environment's `DB_URL` is never read (the host resolved
   * `dbUrl` from `TEST_DB_URL`, `.env.test` or the test's config), so tests never run on the
   * development database.
   */
  readonly env?: unknown;
  /** Pool size for PostgreSQL/MySQL. */
  readonly dbPool?: unknown;
  /** Migrations folder, relative to the root. Default `migrations`. */
  readonly migrationsDir?: unknown;
  /** IANA time zone dates are shown in. Default `UTC`. */
  readonly timezone?: unknown;
  /** Default dayjs format of formatDate. */
  readonly dateFormat?: unknown;
  /** Largest `perPage` a client may ask for. Default 100. */
  readonly maxPerPage?: unknown;
}

/** The config keys the data battery reads, for the host's start-up check of unknown keys. */
export const DATA_CONFIG_KEYS = Object.freeze({
  dbUrl: true,
  dbPool: Object.freeze({ min: true, max: true }),
  migrationsDir: true,
  timezone: true,
  dateFormat: true,
  maxPerPage: true,
} as const);

/** The resolved data settings. */
export interface DataConfig {
  readonly root: string;
  /** The folder a relative SQLite path resolves against (see DataConfigInput.appDir). */
  readonly appDir: string;
  readonly dbUrl: string;
  readonly pool: { readonly min?: number; readonly max?: number };
  readonly migrationsDir: string;
  readonly timezone: string;
  readonly dateFormat: string;
  readonly maxPerPage: number;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

function count(value: unknown): number | undefined {
  const n = typeof value === "string" ? Number(value) : value;
  return typeof n === "number" && Number.isInteger(n) && n >= 0 ? n : undefined;
}

/**
 * Resolves the data settings from an app config and the environment: `DB_URL` overrides `dbUrl`,
 * except in the `test` environment, which never reads it (tests never run on the development
 * database).
 */
export function dataConfig(config: DataConfigInput, env: NodeJS.ProcessEnv = process.env): DataConfig {
  const pool = (typeof config.dbPool === "object" && config.dbPool !== null ? config.dbPool : {}) as Record<
    string,
    unknown
  >;
  const min = count(pool["min"]);
  const max = count(pool["max"]);
  const dir = text(config.migrationsDir) ?? "migrations";
  return {
    root: config.root,
    appDir: text(config.appDir) ?? config.root,
    dbUrl: (config.env === "test" ? undefined : text(env["DB_URL"])) ?? text(config.dbUrl) ?? DEFAULT_DB_URL,
    pool: { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) },
    migrationsDir: isAbsolute(dir) ? dir : resolve(config.root, dir),
    timezone: text(config.timezone) ?? "UTC",
    dateFormat: text(config.dateFormat) ?? DEFAULT_DATE_FORMAT,
    maxPerPage: count(config.maxPerPage) || 100,
  };
}

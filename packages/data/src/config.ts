/**
 * The data package's keys in an app's config (config-schema.ts), resolved once with their
 * defaults, so the plugin and the CLI commands agree on the database, the migrations folder and
 * the time zone.
 */
import { isAbsolute, resolve } from "node:path";
import type { InputOf, ResolvedOf } from "@fwkit/koa-host/config-schema";
import { dataConfigSchema } from "./config-schema.js";

/** Every key of the schema, of any value (the schema checks each). */
type SchemaKeys = { readonly [Key in keyof InputOf<typeof dataConfigSchema>]?: unknown };

/** The app config `dataConfig` reads: the app root, and the schema's keys (each checked there). */
export interface DataConfigInput extends SchemaKeys {
  /** The app root (absolute). */
  readonly root: string;
  /** The app folder a relative SQLite path resolves against (a build's is the folder it was built from); default the root. */
  readonly appDir?: unknown;
  /**
   * The app's environment: in `test` the environment's `DB_URL` is never read (the host resolved
   * `dbUrl` from `TEST_DB_URL`, `.env.test` or the test's config), so tests never run on the
   * development database.
   */
  readonly env?: unknown;
}

/** The config keys the data battery reads, for the host's start-up check of unknown keys. */
export const DATA_CONFIG_KEYS = dataConfigSchema.configKeys;

type Resolved = ResolvedOf<typeof dataConfigSchema>;

/** The entries of a resolved block that are set (a key without a default resolves to `undefined`). */
type SetEntries<T> = { readonly [Key in keyof T]?: Exclude<T[Key], undefined> };

/**
 * The resolved data settings: the schema's keys after defaults, with `dbPool` as `pool` (only the
 * bounds that are set), and the app root and folder the paths resolve against.
 */
export interface DataConfig extends Omit<Resolved, "dbPool"> {
  readonly root: string;
  /** The folder a relative SQLite path resolves against (see DataConfigInput.appDir). */
  readonly appDir: string;
  /** The pool bounds set in `dbPool` (the driver's defaults for the others). */
  readonly pool: SetEntries<Resolved["dbPool"]>;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/**
 * Resolves the data settings from an app config and the environment: `DB_URL` overrides `dbUrl`,
 * except in the `test` environment, which never reads it (tests never run on the development
 * database). A value of the wrong kind is `E_DATA_CONFIG_INVALID` naming the key.
 */
export function dataConfig(config: DataConfigInput, env: NodeJS.ProcessEnv = process.env): DataConfig {
  const { dbPool, ...read } = dataConfigSchema.resolve({ ...config, dbUrl: text(config.dbUrl) }, { env: {} });
  const pool: { -readonly [Key in keyof DataConfig["pool"]]: DataConfig["pool"][Key] } = {};
  if (dbPool.min !== undefined) pool.min = dbPool.min;
  if (dbPool.max !== undefined) pool.max = dbPool.max;
  return {
    ...read,
    root: config.root,
    appDir: text(config.appDir) ?? config.root,
    dbUrl: (config.env === "test" ? undefined : text(env["DB_URL"])) ?? read.dbUrl,
    pool,
    migrationsDir: isAbsolute(read.migrationsDir) ? read.migrationsDir : resolve(config.root, read.migrationsDir),
  };
}

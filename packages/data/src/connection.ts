/**
 * Opens a pooled knex connection from one URL and proves it works before the app serves traffic.
 * Every dialect is set to UTC here, so dates mean the same instant whatever the process time zone.
 */
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import type { Knex } from "knex";
import { driverLoader, report, telemetry } from "@fwkit/battery-kit";
import type pg from "pg";
import { sqliteDatePostProcess } from "./date-columns.js";
import { DEFAULT_DB_URL, parseDbUrl, type DbTarget, type Dialect } from "./db-url.js";
import { E_DB_DRIVER_MISSING, E_DB_UNREACHABLE } from "./errors.js";
import { retryLostReads } from "./read-retry.js";

// Drivers (optional peers of this package) resolve from the app's folder and are checked against
// the peer ranges (see driverLoader).
const drivers = driverLoader(import.meta.url, (url, name, reason) => new E_DB_DRIVER_MISSING(url, name, reason));
const requireHere = createRequire(import.meta.url);

type DialectLookup = (name: string) => new (...args: never[]) => object;
// knex's dialect lookup, imported by connect() with knex (so a server bundle holds it, not a second
// copy of knex from its files); knexConfig() called before any connect() requires it.
let dialectLookup: DialectLookup | undefined;

type DriverName = "better-sqlite3" | "pg" | "mysql2";

/**
 * The driver a URL names, loaded from the app when the URL is configured (a SQLite app never
 * loads pg); a missing one is E_DB_DRIVER_MISSING with its install command.
 */
function loadDriver<T>(name: DriverName, target: DbTarget): T {
  return drivers.requireDriver<T>(name, target.masked);
}

/**
 * knex's dialect client for `name`, handed `driver` instead of requiring the package itself:
 * knex's own require() would find the copy beside knex (the framework's install), not the app's.
 */
function clientWith(name: DriverName, driver: unknown): Knex.Config["client"] {
  dialectLookup ??= (requireHere("knex/lib/dialects/index.js") as { getDialectByNameOrAlias: DialectLookup })
    .getDialectByNameOrAlias;
  const Dialect = dialectLookup(name);
  return class extends Dialect {
    _driver(): unknown {
      return driver;
    }
  } as unknown as Knex.Config["client"];
}

/** Options of {@link connect}. */
export interface ConnectOptions {
  /** Folder relative SQLite paths are resolved against (the app root). */
  readonly root?: string;
  /** Pool size for PostgreSQL and MySQL (SQLite always uses one connection). Default 0..10. */
  readonly pool?: { readonly min?: number; readonly max?: number };
  /** Milliseconds to wait for a connection before failing. Default 10 000. */
  readonly connectTimeoutMs?: number;
  /** Skip the `select 1` probe (the first query then reports an unreachable server). */
  readonly lazy?: boolean;
  /** Where knex's warnings go (the app's pino logger). Default: console.warn. */
  readonly logger?: { warn(message: string): void };
}

/**
 * knex's logger: warnings go to the app's logger, except failed connection attempts, which are
 * already reported as errors (E_DB_UNREACHABLE at start-up, the failed query afterwards).
 */
function knexLog(logger: { warn(message: string): void } = { warn: (m) => console.warn(m) }): Knex.Logger {
  const warn = (message: unknown) => {
    const text = String(message);
    if (!text.startsWith("Acquire connection error")) logger.warn(`knex: ${text}`);
  };
  return {
    warn,
    error: warn,
    deprecate: (method: string, alternative: string) => warn(`${method} is deprecated, use ${alternative}`),
    debug: () => undefined,
  };
}

/** A knex instance plus what this package learnt about it. */
export interface Database {
  /** The knex instance; pass it to models, migrations and raw queries. */
  readonly knex: Knex;
  readonly dialect: Dialect;
  /** The URL with its password masked. */
  readonly url: string;
  /** Releases every pooled connection; safe to call twice. */
  close(): Promise<void>;
}

const dialectOf = new WeakMap<Knex, Dialect>();

/** The dialect a knex instance made by {@link connect} talks to (read from the client otherwise). */
export function dialectOfKnex(db: Knex): Dialect {
  const known = dialectOf.get(db);
  if (known) return known;
  const { driverName, config } = db.client as { driverName?: string; config?: { client?: unknown } };
  const client = driverName ?? String(config?.client ?? "");
  if (client.includes("sqlite")) return "sqlite";
  if (client.includes("mysql")) return "mysql";
  return "postgres";
}

/** Parses a UTC wall-clock timestamp (`timestamp without time zone`, `date`) as UTC. */
function utcParser(text: string): Date {
  return new Date(text.includes(" ") || text.includes("T") ? `${text.replace(" ", "T")}Z` : `${text}T00:00:00Z`);
}

/** pg type parsers for this client only (the global pg.types stay untouched). */
function pgTypes(types: typeof pg.types) {
  return {
    getTypeParser(oid: number, format?: "text" | "binary") {
      if (format === undefined || format === "text") {
        if (oid === 1114 || oid === 1082) return utcParser;
        if (oid === 20) return (text: string) => (Number.isSafeInteger(Number(text)) ? Number(text) : text);
      }
      return types.getTypeParser(oid, format ?? "text");
    },
  };
}

/** The knex configuration for a parsed URL. */
export function knexConfig(target: DbTarget, options: ConnectOptions = {}): Knex.Config {
  const timeout = options.connectTimeoutMs ?? 10_000;
  const log = knexLog(options.logger);
  const pool = { min: options.pool?.min ?? 0, max: options.pool?.max ?? 10 };
  if (target.dialect === "sqlite") {
    return {
      client: clientWith("better-sqlite3", loadDriver("better-sqlite3", target)),
      connection: { filename: target.filename },
      useNullAsDefault: true,
      log,
      acquireConnectionTimeout: timeout,
      postProcessResponse: sqliteDatePostProcess,
      pool: {
        afterCreate(conn: { pragma(source: string): unknown }, done: (error: unknown, conn: unknown) => void) {
          conn.pragma("foreign_keys = ON");
          done(null, conn);
        },
      },
    };
  }
  if (target.dialect === "postgres") {
    const driver = loadDriver<typeof pg>("pg", target);
    const types = pgTypes(driver.types);
    return {
      client: clientWith("pg", driver),
      connection: {
        connectionString: target.connectionString,
        types,
        connectionTimeoutMillis: timeout,
      } as Knex.PgConnectionConfig,
      log,
      acquireConnectionTimeout: timeout,
      pool: {
        ...pool,
        afterCreate(conn: pg.Client, done: (error: unknown, conn: unknown) => void) {
          conn.query("SET TIME ZONE 'UTC'", (error) => done(error, conn));
        },
      },
    };
  }
  return {
    client: clientWith("mysql2", loadDriver("mysql2", target)),
    connection: {
      host: target.host,
      port: target.port,
      user: target.user,
      password: target.password,
      database: target.database,
      timezone: "Z",
      dateStrings: false,
      // Objects are bound as text, never expanded into `key = value` SQL.
      stringifyObjects: true,
      supportBigNumbers: true,
      bigNumberStrings: false,
      connectTimeout: timeout,
      charset: "utf8mb4",
    } as Knex.MySql2ConnectionConfig,
    log,
    acquireConnectionTimeout: timeout,
    pool: {
      ...pool,
      afterCreate(
        conn: { query(sql: string, cb: (error: unknown) => void): void },
        done: (error: unknown, conn: unknown) => void,
      ) {
        conn.query("SET time_zone = '+00:00'", (error) => done(error, conn));
      },
    },
  };
}

/**
 * Connects to `url` (default `sqlite:data/app.db` under `root`), checks the database answers and
 * returns the pool. Fails with E_DB_UNREACHABLE naming the URL (password masked) otherwise.
 */
export async function connect(url: string = DEFAULT_DB_URL, options: ConnectOptions = {}): Promise<Database> {
  const target = parseDbUrl(url, options.root);
  if (target.dialect === "sqlite" && target.filename !== ":memory:") {
    try {
      mkdirSync(dirname(target.filename), { recursive: true });
    } catch (error) {
      throw new E_DB_UNREACHABLE(target.masked, describe(error));
    }
  }
  // knex (with the few hundred lodash modules it requires) loads on the first connection, not when
  // the app imports the data battery: a start or a test that never connects does not pay for it.
  const [{ default: knex }, dialects] = await Promise.all([
    import("knex"),
    // @ts-expect-error knex declares no types for its dialect table (plain CommonJS, named export).
    import("knex/lib/dialects/index.js") as Promise<{ getDialectByNameOrAlias: DialectLookup }>,
  ]);
  dialectLookup ??= dialects.getDialectByNameOrAlias;
  const db = knex(knexConfig(target, options));
  dialectOf.set(db, target.dialect);
  // Observers (the observability battery) watch its pool and query events; nothing when unobserved.
  report(telemetry.connection, () => ({ knex: db, dialect: target.dialect }));
  if (!options.lazy) {
    try {
      await db.raw("select 1");
    } catch (error) {
      await db.destroy().catch(() => undefined);
      throw new E_DB_UNREACHABLE(target.masked, describe(error));
    }
  }
  if (target.dialect !== "sqlite") rideOutRestarts(db, options.logger);
  let closed: Promise<void> | undefined;
  return {
    knex: db,
    dialect: target.dialect,
    url: target.masked,
    close: () => (closed ??= db.destroy()),
  };
}

/**
 * Once the server answered (start-up fails fast on an unreachable one): a server that restarts or
 * fails over costs no request that it need not. A read whose pooled connection was dropped runs
 * again on a fresh one, three times at most (read-retry.ts); a query that finds the server refusing connections
 * waits for it, a new connection tried every 200 ms within the acquire timeout (`connectTimeoutMs`,
 * 10 s), instead of failing at once. Retries are logged at warn, at most one line a second.
 */
function rideOutRestarts(db: Knex, logger: { warn(message: string): void } = { warn: (m) => console.warn(m) }): void {
  const pool = (db.client as { pool?: { propagateCreateError?: boolean } }).pool;
  if (pool) pool.propagateCreateError = false;
  let last = 0;
  let quiet = 0;
  retryLostReads(db, (error) => {
    const now = Date.now();
    if (now - last < 1000) {
      quiet++;
      return;
    }
    const more = quiet > 0 ? ` (and ${quiet} more since the last line)` : "";
    last = now;
    quiet = 0;
    logger.warn(`database connection lost (${describe(error)}): the read ran again on a fresh connection${more}`);
  });
}

function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describe(error.errors[0]);
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}

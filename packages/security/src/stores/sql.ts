/**
 * Sessions in a SQL table through knex: PostgreSQL (`postgres://`), MySQL/MariaDB (`mysql://`)
 * and SQLite (`sqlite:path`). The table is created on first use; expired rows are deleted by
 * `sweep()`, which the plugin runs on a timer. The drivers (pg, mysql2, better-sqlite3) are
 * optional peer dependencies: install the one the URL names.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import knex from "knex";
import type { Knex } from "knex";
import { requireDriver } from "../drivers.js";
import { parseSessionData, type SessionData, type SessionStore } from "./store.js";

/** Options of {@link SqlSessionStore}. */
export type SqlSessionStoreOptions =
  | { readonly kind: "postgres" | "mysql"; readonly connection: string; readonly table: string }
  | { readonly kind: "sqlite"; readonly filename: string; readonly table: string };

/** A SQL session store: one row per session (`id`, `data` JSON text, `expires_at` epoch ms). */
export class SqlSessionStore implements SessionStore {
  readonly kind: string;
  readonly #db: Knex;
  readonly #table: string;
  #ready: Promise<void> | undefined;

  constructor(options: SqlSessionStoreOptions) {
    this.kind = options.kind;
    this.#table = options.table;
    // knex would print every failed connection; failures reach the app as 503s and its log instead.
    const quiet = () => {};
    const log = { warn: quiet, error: quiet, deprecate: quiet, debug: quiet };
    const common = { acquireConnectionTimeout: 3000, useNullAsDefault: true, pool: { min: 0, max: 5 }, log };
    // knex loads the dialect's driver (an optional peer dependency) itself; loading it first makes a
    // missing one E_SECURITY_DRIVER_MISSING naming the install command, not knex's own message.
    requireDriver(
      options.kind === "sqlite" ? "better-sqlite3" : options.kind === "postgres" ? "pg" : "mysql2",
      "SQL session store",
    );
    if (options.kind === "sqlite") {
      if (options.filename !== ":memory:") mkdirSync(dirname(options.filename), { recursive: true });
      this.#db = knex({
        ...common,
        client: "better-sqlite3",
        connection: { filename: options.filename },
        pool: { min: 1, max: 1 },
      });
    } else {
      const client = options.kind === "postgres" ? "pg" : "mysql2";
      const connection =
        options.kind === "postgres"
          ? { connectionString: options.connection, connectionTimeoutMillis: 2000 }
          : { uri: options.connection, connectTimeout: 2000 };
      this.#db = knex({ ...common, client, connection });
    }
  }

  /** Creates the table when it is missing; retried on the next call if the database was down. */
  #ensureTable(): Promise<void> {
    this.#ready ??= this.#createTable().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  async #createTable(): Promise<void> {
    if (await this.#db.schema.hasTable(this.#table)) return;
    try {
      await this.#db.schema.createTable(this.#table, (table) => {
        table.string("id", 64).primary();
        table.text("data", "mediumtext").notNullable();
        table.bigInteger("expires_at").notNullable().index();
      });
    } catch (error) {
      // Another process may have created it between the check and the create.
      if (!(await this.#db.schema.hasTable(this.#table))) throw error;
    }
  }

  async get(id: string): Promise<SessionData | undefined> {
    await this.#ensureTable();
    const row = (await this.#db(this.#table).select("data", "expires_at").where({ id }).first()) as
      | { data: string; expires_at: number | string }
      | undefined;
    if (!row || Number(row.expires_at) <= Date.now()) return undefined;
    return parseSessionData(row.data);
  }

  async set(id: string, data: SessionData, expiresAt: number): Promise<void> {
    await this.#ensureTable();
    await this.#db(this.#table)
      .insert({ id, data: JSON.stringify(data), expires_at: Math.ceil(expiresAt) })
      .onConflict("id")
      .merge(["data", "expires_at"]);
  }

  async destroy(id: string): Promise<void> {
    await this.#ensureTable();
    await this.#db(this.#table).where({ id }).delete();
  }

  async sweep(): Promise<number> {
    await this.#ensureTable();
    return await this.#db(this.#table).where("expires_at", "<=", Date.now()).delete();
  }

  async close(): Promise<void> {
    await this.#db.destroy();
  }
}

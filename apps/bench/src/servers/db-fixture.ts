import { createConnection } from "node:net";
import type { Knex } from "knex";
import { prepareRelationTables } from "./relations-fixture.js";

/** The table the database workload reads one row of, and that row. */
export const DB_TABLE = "bench_items";

/** The row read per request (id 1), the same for every server. */
export const DB_ROW = Object.freeze({ id: 1, name: "Item <1>", price: "3.00" });

/** Where the database workload's servers are: the machine's PostgreSQL and Redis on 127.0.0.1. */
export interface DbTargets {
  readonly dbUrl: string;
  readonly redisUrl: string;
}

/**
 * The machine's servers, as the test suites reach them (TEST_PG_URL / TEST_REDIS_URL override).
 * Not imported from test-servers: that package ships TypeScript sources only, and the bench runs
 * its servers from built JavaScript.
 */
export const DB_TARGETS: DbTargets = Object.freeze({
  dbUrl: process.env["TEST_PG_URL"] ?? "postgres://postgres@127.0.0.1:5432/test",
  redisUrl: process.env["TEST_REDIS_URL"] ?? "redis://127.0.0.1:6379/0",
});

/** Resolves when the server of a URL accepts a connection; rejects naming it otherwise. */
function reachable(name: string, url: string): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: hostname, port: Number(port) });
    socket.setTimeout(2000);
    const fail = (why: string) => {
      socket.destroy();
      reject(new Error(`The db workload needs ${name} on ${hostname}:${port}, which is not reachable (${why}).`));
    };
    socket.once("connect", () => {
      socket.end();
      resolve();
    });
    socket.once("error", (error) => fail(error.message));
    socket.once("timeout", () => fail("timed out"));
  });
}

/**
 * Checks that PostgreSQL and Redis answer (failing with a message naming the one absent) and makes
 * sure the table holds its row, and the relations workloads' tables their rows. Servers of one scenario start together, so a concurrent creation of
 * the table is tolerated: the loser re-checks that the table exists.
 */
export async function prepareDb(): Promise<DbTargets> {
  const { dbUrl, redisUrl } = DB_TARGETS;
  await reachable("PostgreSQL", dbUrl);
  await reachable("Redis", redisUrl);
  // Loaded here, not with the module: the views import this file's constants, and the other
  // scenarios' processes should not carry knex (start-up and RSS are measured).
  const { default: knex } = await import("knex");
  const db = knex({ client: "pg", connection: dbUrl, pool: { min: 0, max: 1 } });
  try {
    try {
      await createTable(db);
    } catch (error) {
      if (!(await db.schema.hasTable(DB_TABLE))) throw error;
    }
    await db(DB_TABLE).insert(DB_ROW).onConflict("id").merge();
    await prepareRelationTables(db);
  } finally {
    await db.destroy();
  }
  return { dbUrl, redisUrl };
}

async function createTable(db: Knex): Promise<void> {
  if (await db.schema.hasTable(DB_TABLE)) return;
  await db.schema.createTable(DB_TABLE, (table) => {
    table.integer("id").primary();
    table.text("name").notNullable();
    table.text("price").notNullable();
  });
}

import knex, { type Knex } from "knex";
import { requireServer } from "test-servers";

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
 * Checks that PostgreSQL and Redis answer (failing with a message naming the one absent) and makes
 * sure the table holds its row. Servers of one scenario start together, so a concurrent creation of
 * the table is tolerated: the loser re-checks that the table exists.
 */
export async function prepareDb(): Promise<DbTargets> {
  const dbUrl = await requireServer("postgres");
  const redisUrl = await requireServer("redis");
  const db = knex({ client: "pg", connection: dbUrl, pool: { min: 0, max: 1 } });
  try {
    try {
      await createTable(db);
    } catch (error) {
      if (!(await db.schema.hasTable(DB_TABLE))) throw error;
    }
    await db(DB_TABLE).insert(DB_ROW).onConflict("id").merge();
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

/**
 * A read whose pooled connection is dropped under it (the server terminated the backend, as a
 * restart or failover does) runs once more on a fresh connection and answers; a write is never run
 * again (it fails, as E_DB_UNREACHABLE 503 once translated), nor is a read inside a transaction.
 * PostgreSQL and MariaDB, terminating only this test's own connections.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { requireServer, serverSkip } from "@fwkit/test-servers";
import { connect, type Database } from "../src/index.js";
import { translateDbError } from "../src/plugin-api.js";
import { isReadQuery } from "../src/read-retry.js";

const table = `read_retry_${process.pid}`;

/**
 * Runs `query` and, once its backend runs the marked statement, terminates that backend from
 * `killer`. The statement sleeps far longer than the search for it can take on a loaded machine, and
 * a query that ends before it was dropped fails the test: otherwise a slow search would let a test
 * of the drop pass without one.
 */
async function dropWhileRunning<T>(
  _killer: Database,
  marker: string,
  query: () => Promise<T>,
  kill: (marker: string) => Promise<number>,
): Promise<T> {
  let settled = false;
  const running = query();
  running.then(
    () => (settled = true),
    () => (settled = true),
  );
  const deadline = Date.now() + 20_000;
  while (!settled && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    if ((await kill(marker)) > 0) return running;
  }
  await running.catch(() => {});
  throw new Error(`the statement marked ${marker} ended before its connection could be dropped`);
}

function suite(
  name: string,
  url: () => Promise<string>,
  sleep: (seconds: number, marker: string) => string,
  kill: (db: Database) => (marker: string) => Promise<number>,
) {
  describe(`lost connections on ${name}`, serverSkip, () => {
    let db: Database;
    let killer: Database;
    before(async () => {
      db = await connect(await url(), { pool: { min: 0, max: 2 } });
      killer = await connect(await url(), { pool: { min: 0, max: 1 } });
      await db.knex.schema.dropTableIfExists(table);
      await db.knex.schema.createTable(table, (t) => {
        t.increments("id");
        t.integer("v");
      });
    });
    after(async () => {
      await db?.knex.schema.dropTableIfExists(table);
      await db?.close();
      await killer?.close();
    });

    test("a read whose connection is dropped mid-query is run again on a fresh one", async () => {
      const marker = `rr_read_${Date.now()}`;
      const rows = await dropWhileRunning(killer, marker, () => db.knex.raw(sleep(3, marker)), kill(killer));
      assert.ok(rows, "the read answered");
      const builder = await dropWhileRunning(
        killer,
        `${marker}b`,
        () => db.knex.select(db.knex.raw(`${sleepExpression(name, 3)} as ${marker}b`)),
        kill(killer),
      );
      assert.equal(builder.length, 1);
    });

    test("a write whose connection is dropped is not run again (a failure is a 503)", async () => {
      const marker = `rr_write_${Date.now()}`;
      const outcome = await dropWhileRunning(
        killer,
        marker,
        () =>
          db
            .knex(table)
            .insert({ v: db.knex.raw(`(select 1 from (select ${sleepExpression(name, 3)} as ${marker}) s)`) }),
        kill(killer),
      ).then(
        () => "done",
        (error: unknown) => (translateDbError(error) as { status?: number }).status,
      );
      // The server may have applied it before the connection went: never twice.
      assert.ok(outcome === "done" || outcome === 503, String(outcome));
      const [{ n }] = (await db.knex(table).count({ n: "*" })) as [{ n: number | string }];
      assert.ok(Number(n) <= 1, `the insert ran ${n} times`);
    });

    test("a read inside a transaction is not run again", async () => {
      const marker = `rr_trx_${Date.now()}`;
      await assert.rejects(
        dropWhileRunning(killer, marker, () => db.knex.transaction((trx) => trx.raw(sleep(30, marker))), kill(killer)),
      );
    });
  });
}

function sleepExpression(name: string, seconds: number): string {
  return name === "PostgreSQL" ? `pg_sleep(${seconds})` : `sleep(${seconds})`;
}

suite(
  "PostgreSQL",
  () => requireServer("postgres"),
  (seconds, marker) => `select pg_sleep(${seconds}) as ${marker}`,
  (killer) => async (marker) => {
    const result = await killer.knex.raw(
      `select pg_terminate_backend(pid) from pg_stat_activity where query like ? and pid <> pg_backend_pid()`,
      [`%${marker}%`],
    );
    return (result as { rows: unknown[] }).rows.length;
  },
);

suite(
  "MariaDB",
  () => requireServer("mysql"),
  (seconds, marker) => `select sleep(${seconds}) as ${marker}`,
  (killer) => async (marker) => {
    const [rows] = (await killer.knex.raw(
      `select id from information_schema.processlist where info like ? and id <> connection_id()`,
      [`%${marker}%`],
    )) as [Array<{ id: number }>];
    for (const row of rows) await killer.knex.raw(`kill ${Number(row.id)}`);
    return rows.length;
  },
);

test("which queries count as reads", async () => {
  const db = await connect("sqlite::memory:");
  try {
    const k = db.knex;
    assert.equal(isReadQuery(k("t").select("a") as never), true);
    assert.equal(isReadQuery(k("t").first() as never), true);
    assert.equal(isReadQuery(k.raw("select 1") as never), true);
    assert.equal(isReadQuery(k.raw("  SELECT * from t") as never), true);
    assert.equal(isReadQuery(k("t").insert({ a: 1 }) as never), false);
    assert.equal(isReadQuery(k("t").update({ a: 1 }) as never), false);
    assert.equal(isReadQuery(k("t").del() as never), false);
    assert.equal(isReadQuery(k("t").select("a").forUpdate() as never), false);
    assert.equal(isReadQuery(k.raw("select * from t for update") as never), false);
    assert.equal(isReadQuery(k.raw("insert into t values (1)") as never), false);
    assert.equal(isReadQuery(k.raw("with x as (delete from t returning *) select * from x") as never), false);
  } finally {
    await db.close();
  }
});

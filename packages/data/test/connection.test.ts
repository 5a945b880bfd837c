import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { requireServer, serverSkip } from "@fwkit/test-servers";
import { connect } from "../src/connection.js";

const dir = mkdtempSync(join(tmpdir(), "data-connection-"));
after(() => rmSync(dir, { recursive: true, force: true }));

async function unreachable(url: string, root = dir): Promise<Error & { code?: string; status?: number }> {
  try {
    const db = await connect(url, { root, connectTimeoutMs: 3000 });
    await db.close();
  } catch (error) {
    return error as Error & { code?: string };
  }
  assert.fail(`${url} connected`);
}

describe("connect", () => {
  test("the default SQLite URL creates data/app.db under the root and answers queries", async () => {
    const db = await connect(undefined, { root: dir });
    assert.equal(db.dialect, "sqlite");
    assert.equal(db.url, "sqlite:data/app.db");
    assert.ok(existsSync(join(dir, "data", "app.db")));
    assert.deepEqual(await db.knex.raw("select 1 + 1 as two"), [{ two: 2 }]);
    await db.close();
    await db.close();
  });

  test("SQLite enforces foreign keys", async () => {
    const db = await connect("sqlite::memory:");
    const rows = (await db.knex.raw("pragma foreign_keys")) as { foreign_keys: number }[];
    assert.equal(rows[0]?.foreign_keys, 1);
    await db.close();
  });

  test("an unusable SQLite path fails with E_DB_UNREACHABLE naming it", async () => {
    const file = join(dir, "plain-file");
    writeFileSync(file, "not a folder");
    const error = await unreachable(`sqlite:${file}/app.db`);
    assert.equal(error.code, "E_DB_UNREACHABLE");
    assert.equal(error.status, 503);
    assert.ok(error.message.includes(`${file}/app.db`), error.message);
  });

  test("a PostgreSQL server that is not there fails with the URL, password masked", async () => {
    const error = await unreachable("postgres://app:hunter2@127.0.0.1:1/app");
    assert.equal(error.code, "E_DB_UNREACHABLE");
    assert.match(error.message, /postgres:\/\/app:\*\*\*\*@127\.0\.0\.1:1\/app/);
    assert.match(error.message, /ECONNREFUSED/);
    assert.ok(!error.message.includes("hunter2"));
  });

  test("a MySQL server that is not there fails with the URL, password masked", async () => {
    const error = await unreachable("mysql://app:hunter2@127.0.0.1:1/app");
    assert.equal(error.code, "E_DB_UNREACHABLE");
    assert.match(error.message, /mysql:\/\/app:\*\*\*\*@127\.0\.0\.1:1\/app/);
    assert.ok(!error.message.includes("hunter2"));
  });

  test("a PostgreSQL database that does not exist fails clearly", serverSkip, async () => {
    const base = new URL(await requireServer("postgres"));
    base.password = "hunter2";
    base.pathname = "/no_such_database_for_data_tests";
    const error = await unreachable(base.href);
    assert.equal(error.code, "E_DB_UNREACHABLE");
    assert.match(error.message, /no_such_database_for_data_tests/);
    assert.ok(!error.message.includes("hunter2"));
  });

  test("PostgreSQL and MariaDB sessions run in UTC", serverSkip, async () => {
    const pg = await connect(await requireServer("postgres"));
    const pgZone = (await pg.knex.raw("show timezone")) as { rows: { TimeZone: string }[] };
    assert.equal(pgZone.rows[0]?.TimeZone, "UTC");
    await pg.close();
    const my = await connect(await requireServer("mysql"));
    const [myZone] = (await my.knex.raw("select @@session.time_zone as zone")) as [{ zone: string }[]];
    assert.equal(myZone[0]?.zone, "+00:00");
    await my.close();
  });
});

/**
 * The test environment's database: never the development DB_URL (of `.env` or the environment),
 * `.env.test` and TEST_DB_URL name it, in memory by default, and one that could be the
 * development database is refused with E_TEST_DB_URL.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { loadConfig } from "../src/config.js";
import { assertTestDatabase } from "../src/test-database.js";

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function appFolder(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "koa-host-testdb-"));
  roots.push(root);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
  return root;
}

const refused = (pattern: RegExp) => (error: Error & { code?: string }) =>
  error.code === "E_TEST_DB_URL" && pattern.test(error.message);

describe("the test environment's database", () => {
  test("a .env's DB_URL is never the test database: the default is SQLite in memory", async () => {
    const root = appFolder({ ".env": "DB_URL=postgres://app:secret@127.0.0.1/tasks\nMAIL_FROM=a@b.example\n" });
    const environment: NodeJS.ProcessEnv = {};
    const config = await loadConfig(root, { env: "test" }, environment);
    assert.equal(config.dbUrl, "sqlite::memory:");
    assert.equal(environment["DB_URL"], undefined, "the development DB_URL is not copied into the environment");
    assert.equal(environment["MAIL_FROM"], "a@b.example", "the other variables of .env are read");
    // Development still reads it.
    assert.equal((await loadConfig(root, {}, {})).dbUrl, "postgres://app:secret@127.0.0.1/tasks");
  });

  test("mail too: the development MAIL_URL is never the test's; the default keeps mail in memory", async () => {
    const root = appFolder({ ".env": "MAIL_URL=smtp://user:secret@mail.example.com:587\n" });
    const config = await loadConfig(root, { env: "test" }, { MAIL_URL: "smtp://shell.example.com:25" });
    assert.equal(config.mailUrl, "memory:");
    assert.ok(config.mailFrom, "a sender is set, so a mail is composed as in development");
    const given = await loadConfig(appFolder({ ".env.test": "MAIL_URL=smtp://127.0.0.1:2525\n" }), { env: "test" }, {});
    assert.equal(given.mailUrl, "smtp://127.0.0.1:2525");
  });

  test("DB_URL in the real environment is not read in test either; TEST_DB_URL is", async () => {
    const root = appFolder({});
    assert.equal((await loadConfig(root, { env: "test" }, { DB_URL: "sqlite:data/app.db" })).dbUrl, "sqlite::memory:");
    const config = await loadConfig(root, {}, { APP_ENV: "test", TEST_DB_URL: "postgres://127.0.0.1/tasks_test" });
    assert.equal(config.dbUrl, "postgres://127.0.0.1/tasks_test");
  });

  test(".env.test names the test database (DB_URL there means the test one) and wins over .env", async () => {
    const root = appFolder({
      ".env": "DB_URL=sqlite:data/app.db\nLOG_LEVEL=debug\nAPP_ENV=test\n",
      ".env.test": "DB_URL=sqlite:data/test.db\nLOG_LEVEL=error\n",
    });
    const environment: NodeJS.ProcessEnv = {};
    const config = await loadConfig(root, {}, environment);
    assert.equal(config.env, "test");
    assert.equal(config.dbUrl, "sqlite:data/test.db");
    assert.equal(config.logLevel, "error");
    assert.equal(environment["DB_URL"], undefined);
  });

  test("a test database equal to the development one, or not named for tests, is refused", async () => {
    const root = appFolder({ ".env": "DB_URL=postgres://app:secret@localhost:5432/tasks_test\n" });
    await assert.rejects(
      loadConfig(root, { env: "test" }, { TEST_DB_URL: "postgres://app:other@127.0.0.1:5432/tasks_test/" }),
      refused(/is the development database/),
    );
    await assert.rejects(
      loadConfig(appFolder({}), { env: "test", dbUrl: "postgres://127.0.0.1/tasks" }, {}),
      refused(/"tasks" does not say it is for tests.*TEST_DB_URL/s),
    );
    await assert.rejects(
      loadConfig(appFolder({ ".env.test": "DB_URL=sqlite:data/app.db\n" }), { env: "test" }, {}),
      refused(/"app.db"/),
    );
  });

  test("the refusal masks the password; in-memory and test-named databases pass", () => {
    assert.throws(
      () => assertTestDatabase("postgres://app:hunter2@127.0.0.1/shop", []),
      (error: Error) => refused(/app:\*\*\*\*@/)(error) && !error.message.includes("hunter2"),
    );
    for (const url of [
      "sqlite::memory:",
      "sqlite:data/test.db",
      "mysql://root@127.0.0.1/shop_test",
      "postgres://h/test",
    ])
      assert.doesNotThrow(() => assertTestDatabase(url, ["sqlite:data/app.db"]));
  });
});

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DEFAULT_DB_URL, maskDbUrl, parseDbUrl } from "../src/db-url.js";

describe("maskDbUrl", () => {
  test("replaces the password and keeps everything else", () => {
    assert.equal(maskDbUrl("postgres://app:s3cr%40t@db.local:5432/app"), "postgres://app:****@db.local:5432/app");
    assert.equal(maskDbUrl("mysql://root:pw@127.0.0.1/test?x=1"), "mysql://root:****@127.0.0.1/test?x=1");
  });

  test("leaves URLs without a password alone", () => {
    assert.equal(maskDbUrl("postgres://postgres@127.0.0.1:5432/test"), "postgres://postgres@127.0.0.1:5432/test");
    assert.equal(maskDbUrl("sqlite:data/app.db"), "sqlite:data/app.db");
  });
});

describe("parseDbUrl", () => {
  test("the default is a SQLite file under the app root", () => {
    assert.equal(DEFAULT_DB_URL, "sqlite:data/app.db");
    assert.deepEqual(parseDbUrl(DEFAULT_DB_URL, "/srv/app"), {
      dialect: "sqlite",
      filename: "/srv/app/data/app.db",
      masked: "sqlite:data/app.db",
    });
  });

  test("SQLite: absolute paths, sqlite:// forms and memory", () => {
    assert.equal((parseDbUrl("sqlite:/var/db/x.db", "/srv") as { filename: string }).filename, "/var/db/x.db");
    assert.equal((parseDbUrl("sqlite:///var/db/x.db", "/srv") as { filename: string }).filename, "/var/db/x.db");
    assert.equal((parseDbUrl("sqlite::memory:", "/srv") as { filename: string }).filename, ":memory:");
  });

  test("PostgreSQL keeps the URL as the connection string", () => {
    const target = parseDbUrl("postgresql://u:p@h:6543/db?sslmode=require");
    assert.equal(target.dialect, "postgres");
    assert.equal(
      (target as { connectionString: string }).connectionString,
      "postgresql://u:p@h:6543/db?sslmode=require",
    );
    assert.equal(target.masked, "postgresql://u:****@h:6543/db?sslmode=require");
  });

  test("MySQL and MariaDB URLs are split into decoded parts", () => {
    assert.deepEqual(parseDbUrl("mysql://app:p%40ss@db:3307/shop"), {
      dialect: "mysql",
      host: "db",
      port: 3307,
      user: "app",
      password: "p@ss",
      database: "shop",
      masked: "mysql://app:****@db:3307/shop",
    });
    assert.equal(parseDbUrl("mariadb://root@127.0.0.1/test").dialect, "mysql");
  });

  test("unsupported or incomplete URLs fail with E_BAD_DB_URL and a masked URL", () => {
    for (const url of [
      "mongodb://u:hunter2@h/db",
      "nonsense",
      "postgres://u:hunter2@h",
      "mysql://u:hunter2@h:3306/",
      "sqlite:",
    ]) {
      assert.throws(
        () => parseDbUrl(url),
        (error: Error & { code?: string; status?: number }) => {
          assert.equal(error.code, "E_BAD_DB_URL");
          assert.ok(!error.message.includes("hunter2"), error.message);
          return true;
        },
        url,
      );
    }
  });
});

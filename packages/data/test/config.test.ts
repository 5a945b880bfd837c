import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { dataConfig } from "../src/config.js";

describe("dataConfig", () => {
  test("defaults: SQLite under the root, migrations/, UTC, 100 per page", () => {
    assert.deepEqual(dataConfig({ root: "/srv/app" }, {}), {
      root: "/srv/app",
      appDir: "/srv/app",
      dbUrl: "sqlite:data/app.db",
      pool: {},
      migrationsDir: "/srv/app/migrations",
      timezone: "UTC",
      dateFormat: "YYYY-MM-DD HH:mm",
      maxPerPage: 100,
    });
  });

  test("a build's SQLite file is the app folder's: appDir, not the root of the code", () => {
    const config = dataConfig({ root: "/srv/app/build", appDir: "/srv/app" }, {});
    assert.equal(config.appDir, "/srv/app");
    assert.equal(config.migrationsDir, "/srv/app/build/migrations", "the migrations are the build's own (compiled)");
  });

  test("DB_URL in the environment wins over dbUrl in the config", () => {
    assert.equal(dataConfig({ root: "/a", dbUrl: "sqlite:x.db" }, {}).dbUrl, "sqlite:x.db");
    assert.equal(
      dataConfig({ root: "/a", dbUrl: "sqlite:x.db" }, { DB_URL: "postgres://h/db" }).dbUrl,
      "postgres://h/db",
    );
    assert.equal(dataConfig({ root: "/a", dbUrl: "  " }, { DB_URL: "" }).dbUrl, "sqlite:data/app.db");
  });

  test("reads the pool, folder, zone, format and page limit", () => {
    const config = dataConfig(
      {
        root: "/a",
        dbPool: { min: "1", max: 5 },
        migrationsDir: "db/migrations",
        timezone: "Europe/Paris",
        dateFormat: "D MMM",
        maxPerPage: "25",
      },
      {},
    );
    assert.deepEqual(config.pool, { min: 1, max: 5 });
    assert.equal(config.migrationsDir, "/a/db/migrations");
    assert.equal(config.timezone, "Europe/Paris");
    assert.equal(config.dateFormat, "D MMM");
    assert.equal(config.maxPerPage, 25);
    assert.equal(dataConfig({ root: "/a", migrationsDir: "/abs/m" }, {}).migrationsDir, "/abs/m");
    assert.deepEqual(dataConfig({ root: "/a", dbPool: {} }, {}).pool, {});
  });

  test("a value of the wrong kind stops the start naming the key (the one rule of every battery)", () => {
    for (const [config, name] of [
      [{ dbPool: { max: -1 } }, "dbPool.max"],
      [{ dbPool: { min: "some" } }, "dbPool.min"],
      [{ maxPerPage: 0 }, "maxPerPage"],
      [{ maxPerPage: "0x10" }, "maxPerPage"],
      [{ timezone: 5 }, "timezone"],
    ] as const) {
      assert.throws(
        () => dataConfig({ root: "/a", ...config }, {}),
        (error: Error & { code?: string }) => error.code === "E_DATA_CONFIG_INVALID" && error.message.includes(name),
        name,
      );
    }
  });
});

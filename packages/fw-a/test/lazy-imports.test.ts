// Importing fw-a, and running an app that configures no optional backend, loads none of the
// backends' drivers: they are imported when an app configures them (issue: start-up under 1 s).
// Each case runs in a fresh Node process (sources through tsx, as the tests do) that records every
// module it loads: CommonJS ones from require.cache, ES modules from a resolve hook.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { loadedAmong, packagesLoadedBy } from "@fwkit/test-servers";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const fixtureApp = fileURLToPath(new URL("./fixture-app", import.meta.url));

/** Packages an app that configures no Redis, PostgreSQL/MySQL, mail, S3, bundles, JWT... must not load. */
const DRIVERS = [
  "ioredis",
  "pg",
  "mysql2",
  "nodemailer",
  "@aws-sdk/*",
  "@smithy/*",
  "esbuild",
  "flydrive",
  "jose",
  "bcrypt",
  "@node-rs/argon2",
  "@koa/cors",
  "pino-pretty",
  // The command-line parser (only the CLI needs it) and the body parser (loaded with the first body).
  "yargs",
  "koa-body",
];

describe("fw-a loads backend drivers only when an app configures them", () => {
  test("import('fw-a') loads none of them", () => {
    const loaded = packagesLoadedBy(packageDir, `await import("fw-a");`);
    // The recorder works: the framework's own dependencies show up.
    assert.ok(loaded.esm.has("koa") || loaded.commonjs.has("koa"), "koa was recorded");
    assert.ok(loaded.commonjs.has("knex"), "knex (the data layer) was recorded");
    assert.deepEqual(loadedAmong(loaded, DRIVERS), []);
  });

  test("an app on the defaults (SQLite, cookie sessions, memory cache, local files, no mail) serving a page loads none of them", () => {
    const loaded = packagesLoadedBy(packageDir, `const { createApp } = await import("fw-a");
const { inject } = await import("fw-a/testing");
const app = await createApp({ root: ${JSON.stringify(fixtureApp)}, config: { env: "test", logRequests: false, dbUrl: "sqlite::memory:" } });
const res = await inject(app, "/");
if (res.statusCode !== 200) throw new Error("GET / answered " + res.statusCode + ": " + res.body);
await app.close();`,
    );
    assert.ok(loaded.commonjs.has("better-sqlite3"), "the SQLite driver was loaded");
    assert.deepEqual(loadedAmong(loaded, DRIVERS), []);
  });

  test("configuring SMTP mail loads nodemailer at start-up, and nothing else", () => {
    const loaded = packagesLoadedBy(packageDir, `const { createApp } = await import("fw-a");
const app = await createApp({ root: ${JSON.stringify(fixtureApp)}, config: { env: "test", logRequests: false, dbUrl: "sqlite::memory:", mailUrl: "smtp://127.0.0.1:2525", mailFrom: "app@example.test" } });
await app.close();`,
    );
    assert.ok(loaded.commonjs.has("nodemailer"), "nodemailer was loaded for the configured mail");
    assert.deepEqual(loadedAmong(loaded, DRIVERS, ["nodemailer"]), []);
  });
});

// Importing fw-b (and fw-b/contrib), and running an app that configures no optional backend or
// contrib module, loads none of their drivers: they are imported when an app configures them.
// Each case runs in a fresh Node process (sources through tsx, as the tests do) that records every
// module it loads: CommonJS ones from require.cache, ES modules from a resolve hook.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { loadedAmong, packagesLoadedBy } from "@fwkit/test-servers";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const fixtureApp = fileURLToPath(new URL("./fixture-app", import.meta.url));

/** Packages an app that configures no Redis, PostgreSQL/MySQL, mail, S3, bundles, JWT, OAuth, captcha... must not load. */
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
  "openid-client",
  "svg-captcha",
  "i18next",
  // The command-line parser (only the CLI needs it) and the body parser (loaded with the first body).
  "yargs",
  "koa-body",
];

describe("fw-b loads backend and contrib drivers only when an app configures them", () => {
  test("import('fw-b') and import('fw-b/contrib') load none of them", () => {
    const loaded = packagesLoadedBy(packageDir, `await import("fw-b"); await import("fw-b/contrib");`);
    // The recorder works: the framework's own dependencies show up.
    assert.ok(loaded.esm.has("koa") || loaded.commonjs.has("koa"), "koa was recorded");
    assert.ok(loaded.commonjs.has("knex"), "knex (the data layer) was recorded");
    assert.deepEqual(loadedAmong(loaded, DRIVERS), []);
  });

  test("an app on the defaults (SQLite, cookie sessions, memory cache, local files, no mail, no contrib) serving a page loads none of them", () => {
    const loaded = packagesLoadedBy(packageDir, `const { createApp } = await import("fw-b");
const app = await createApp({ root: ${JSON.stringify(fixtureApp)}, config: { env: "test", logRequests: false, dbUrl: "sqlite::memory:" } });
const server = await app.listen(0, "127.0.0.1");
const res = await fetch("http://127.0.0.1:" + server.address().port + "/");
if (res.status !== 200) throw new Error("GET / answered " + res.status + ": " + (await res.text()));
await app.close();`,
    );
    assert.ok(loaded.commonjs.has("better-sqlite3"), "the SQLite driver was loaded");
    // The default layout translates its labels, so the first page rendered loads i18next.
    assert.deepEqual(loadedAmong(loaded, DRIVERS, ["i18next"]), []);
  });

  test("the captcha's svg-captcha is loaded at the first challenge drawn, not when the app starts", () => {
    const loaded = packagesLoadedBy(packageDir, `const { createRequire } = await import("node:module");
const { createApp } = await import("fw-b");
const app = await createApp({ root: ${JSON.stringify(fixtureApp)}, config: { env: "test", logRequests: false, dbUrl: "sqlite::memory:", contrib: { captcha: true } } });
const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes("/node_modules/svg-captcha/"));
if (loaded()) throw new Error("svg-captcha was loaded at start-up");
const { svgCaptchaVerifier } = await import("fw-b/contrib");
svgCaptchaVerifier("secret").challenge({ session: {} });
if (!loaded()) throw new Error("svg-captcha was not loaded by a challenge");
await app.close();`,
    );
    assert.deepEqual(loadedAmong(loaded, DRIVERS, ["svg-captcha"]), []);
  });

  test("an app with contrib.oauth on finds openid-client at start-up (the install check) without loading it", () => {
    const oauth = { providers: { acme: { type: "oauth2", clientId: "id", clientSecret: "secret", authorizationEndpoint: "https://acme.test/a", tokenEndpoint: "https://acme.test/t", userinfoEndpoint: "https://acme.test/u" } } };
    const loaded = packagesLoadedBy(packageDir, `const { createApp } = await import("fw-b");
const app = await createApp({ root: ${JSON.stringify(fixtureApp)}, config: { env: "test", logRequests: false, dbUrl: "sqlite::memory:", autoMigrate: true, contrib: { auth: true, oauth: ${JSON.stringify(oauth)} } } });
await app.close();`,
    );
    assert.deepEqual(loadedAmong(loaded, DRIVERS), []);
  });
});

/**
 * The lazy-import rule, written once and run by both frameworks' tests: importing a framework, and
 * running an app that configures no optional backend, loads none of the backends' drivers; they
 * are imported when an app configures them. Each case runs in a fresh Node process (sources
 * through tsx, as the tests do) that records every module it loads.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { loadedAmong, modulesLoadedBy, packagesLoadedBy } from "../loaded-packages.js";

/**
 * Packages an app that configures no Redis, PostgreSQL/MySQL, mail, S3, bundles, JWT... must not
 * load, whatever the framework: the command-line parser (only the CLI needs it) and the body parser
 * (loaded with the first body) among them.
 */
export const DRIVER_PACKAGES: readonly string[] = [
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
  "yargs",
  "koa-body",
];

/**
 * Modules of the batteries that their plugins load in `setup`, when the battery is on and its config
 * needs them (paths inside the workspace, as the tests load the sources): an app that switches the
 * data and services batteries off, declares no realtime channel and no jobs dashboard loads none of them.
 */
export const BATTERY_PARTS: readonly string[] = [
  "/data/src/plugin-parts.",
  "/data/src/migrations.",
  "/data/src/migration-cli.",
  "/services/src/plugin-parts.",
  "/services/src/assets/assets.",
  "/services/src/mail/previews/",
  "/realtime/src/plugin-parts.",
  "/realtime/src/socket/endpoint.",
  "/jobs/src/dashboard.",
];

/** The modules of `loaded` among {@link BATTERY_PARTS} (each listed part once). */
function batteryPartsAmong(loaded: readonly string[]): string[] {
  return BATTERY_PARTS.filter((part) => loaded.some((url) => url.includes(part)));
}

/** The framework under test, as {@link lazyImportCases} needs it. */
export interface LazyImportSubject {
  /** The package name (`fw-a`), imported as the app does. */
  readonly name: string;
  /** The package's folder, where the child process resolves the framework from. */
  readonly packageDir: string;
  /** An app folder whose `/` answers 200 on the default config. */
  readonly fixtureApp: string;
  /** The entries an app imports besides the root (`fw-b/contrib`). */
  readonly entries?: readonly string[];
  /** The framework's own optional drivers (contrib modules), added to {@link DRIVER_PACKAGES}. */
  readonly drivers?: readonly string[];
  /** Packages the default app may load while rendering its first page (what its layout needs). */
  readonly pageLoads?: readonly string[];
}

/** Registers the lazy-import tests of one framework (call at the top level of its test file). */
export function lazyImportCases(subject: LazyImportSubject): void {
  const drivers = [...DRIVER_PACKAGES, ...(subject.drivers ?? [])];
  const createApp = (config: string) => `const { createApp } = await import(${JSON.stringify(subject.name)});
const app = await createApp({ root: ${JSON.stringify(subject.fixtureApp)}, config: { env: "test", logRequests: false, dbUrl: "sqlite::memory:"${config} } });`;

  describe(`${subject.name} loads backend drivers only when an app configures them`, () => {
    test(`import('${subject.name}') loads none of them`, () => {
      const imports = [subject.name, ...(subject.entries ?? [])]
        .map((entry) => `await import(${JSON.stringify(entry)});`)
        .join(" ");
      const loaded = packagesLoadedBy(subject.packageDir, imports);
      // The recorder works: the framework's own dependencies show up.
      assert.ok(loaded.esm.has("koa") || loaded.commonjs.has("koa"), "koa was recorded");
      assert.ok(loaded.commonjs.has("pino"), "pino (the logger, CommonJS) was recorded");
      // knex and the lodash modules it requires load on the first connection (data's connect).
      assert.ok(!loaded.commonjs.has("knex"), "knex loads on the first connection, not on import");
      assert.deepEqual(loadedAmong(loaded, drivers), []);
    });

    test("an app on the defaults (SQLite, cookie sessions, memory cache, local files, no mail) serving a page loads none of them", () => {
      const loaded = packagesLoadedBy(
        subject.packageDir,
        `${createApp("")}
const server = await app.listen(0, "127.0.0.1");
const res = await fetch("http://127.0.0.1:" + server.address().port + "/");
if (res.status !== 200) throw new Error("GET / answered " + res.status + ": " + (await res.text()));
await app.close();`,
      );
      assert.ok(loaded.commonjs.has("better-sqlite3"), "the SQLite driver was loaded");
      assert.deepEqual(loadedAmong(loaded, drivers, subject.pageLoads ?? []), []);
    });

    test("the batteries' parts load in their plugins' setup: not with the data and services batteries off and no channel", () => {
      const off = modulesLoadedBy(
        subject.packageDir,
        `${createApp(`, batteries: { data: false, services: false }`)}
await app.close();`,
      );
      assert.deepEqual(batteryPartsAmong(off.esm), []);
      // With both on (the defaults), their plugins' setup loads what they build from.
      const on = modulesLoadedBy(
        subject.packageDir,
        `${createApp("")}
await app.close();`,
      );
      assert.deepEqual(batteryPartsAmong(on.esm), [
        "/data/src/plugin-parts.",
        "/data/src/migrations.",
        "/services/src/plugin-parts.",
        "/services/src/assets/assets.",
        "/services/src/mail/previews/",
      ]);
    });

    test("an app on the defaults serving a request loads none of Node's bundled undici (fetch, WebSocket)", () => {
      // An ES import of node:http reads every export for the module's ES facade, and three are
      // getters that load undici: about 30 ms of a start. The request is sent without fetch.
      const loaded = modulesLoadedBy(
        subject.packageDir,
        `${createApp("")}
const server = await app.listen(0, "127.0.0.1");
const { get } = process.getBuiltinModule("node:http");
const status = await new Promise((resolve, reject) => {
  get({ host: "127.0.0.1", port: server.address().port, path: "/" }, (res) => {
    res.resume();
    res.on("end", () => resolve(res.statusCode));
  }).on("error", reject);
});
if (status !== 200) throw new Error("GET / answered " + status);
await app.close();`,
      );
      assert.ok(loaded.builtins.includes("http"), "the recorder lists Node's built-ins");
      assert.deepEqual(
        loaded.builtins.filter((name) => name.includes("undici")),
        [],
      );
    });

    test("configuring SMTP mail loads nodemailer at start-up, and nothing else", () => {
      const loaded = packagesLoadedBy(
        subject.packageDir,
        `${createApp(`, mailUrl: "smtp://127.0.0.1:2525", mailFrom: "app@example.test"`)}
await app.close();`,
      );
      assert.ok(loaded.commonjs.has("nodemailer"), "nodemailer was loaded for the configured mail");
      assert.deepEqual(loadedAmong(loaded, drivers, ["nodemailer"]), []);
    });
  });
}

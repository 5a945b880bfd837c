/**
 * Config resolution: deep merge of config layers, the app folder's
 * `.env` file, and APP_ENV values the app does not declare.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { loadConfig } from "../src/config.js";
import { mergeConfig } from "../src/config-merge.js";
import { parseEnvFile } from "../src/env-file.js";

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** An app folder with the given lib/config.mjs body and .env text. */
function appFolder(config?: string, env?: string): string {
  const root = mkdtempSync(join(tmpdir(), "koa-host-config-"));
  roots.push(root);
  if (config !== undefined) {
    mkdirSync(join(root, "lib"));
    writeFileSync(join(root, "lib", "config.mjs"), `export const config = ${config};\n`);
  }
  if (env !== undefined) writeFileSync(join(root, ".env"), env);
  return root;
}

describe("config layers merge deeply", () => {
  test("an environment section that sets one key of a block keeps the block's other keys", async () => {
    const root = appFolder(`{
      session: { cookie: "sid", maxAge: 60, flags: { secure: false, sameSite: "lax" } },
      environments: { production: { secretKey: "${crypto.randomUUID()}", session: { maxAge: 3600, flags: { secure: true } } } },
    }`);
    const config = await loadConfig(root, {}, { APP_ENV: "production" });
    // `session` is the app's own key here (untyped), so it is read as a plain record.
    assert.deepEqual((config as unknown as Record<string, unknown>)["session"], {
      cookie: "sid",
      maxAge: 3600,
      flags: { secure: true, sameSite: "lax" },
    });
  });

  test("a block of the defaults keeps its other keys when the file sets one", async () => {
    const root = appFolder(`{ static: { dir: "public" }, bodyLimits: { json: "10kb" } }`);
    const config = await loadConfig(root, {}, {});
    assert.deepEqual(config.static, { dir: "public", prefix: "/static", maxAge: 0 });
    assert.equal(config.bodyLimits.json, "10kb");
    assert.equal(config.bodyLimits.form, "1mb");
  });

  test("arrays are replaced, not concatenated; later layers win", () => {
    const merged = mergeConfig(
      { list: [1, 2], block: { a: 1, keep: true } },
      { list: [3], block: { a: 2 } },
      { block: { b: 3 } },
    );
    assert.deepEqual(merged, { list: [3], block: { a: 2, keep: true, b: 3 } });
  });

  test("a value that is not a plain object replaces a block and vice versa; undefined leaves the value", () => {
    class Store {
      readonly kind = "x";
    }
    const store = new Store();
    assert.deepEqual(mergeConfig({ a: { x: 1 } }, { a: false }), { a: false });
    assert.deepEqual(mergeConfig({ a: false }, { a: { x: 1 } }), { a: { x: 1 } });
    assert.equal(mergeConfig({ a: { x: 1 } }, { a: store })["a"], store);
    assert.deepEqual(mergeConfig({ a: 1 }, { a: undefined }), { a: 1 });
  });

  test("a __proto__ key in a layer does not reach the prototype", () => {
    const merged = mergeConfig(JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}') as Record<string, unknown>);
    assert.equal(({} as Record<string, unknown>)["polluted"], undefined);
    assert.deepEqual(merged, { ok: 1 });
  });
});

describe("the app folder's .env file", () => {
  test("fills in variables before the config is read, never over the real environment", async () => {
    const root = appFolder(`{}`, "SECRET_KEY=from-dotenv\nLOG_LEVEL=error\nAPP_ENV=test\n");
    const environment: NodeJS.ProcessEnv = { LOG_LEVEL: "fatal" };
    const config = await loadConfig(root, {}, environment);
    assert.equal(config.secretKey, "from-dotenv");
    assert.equal(config.logLevel, "fatal");
    assert.equal(config.env, "test");
    assert.equal(environment["SECRET_KEY"], "from-dotenv");
    assert.equal(environment["LOG_LEVEL"], "fatal");
  });

  test("no .env file is fine", async () => {
    const config = await loadConfig(appFolder(`{}`), {}, {});
    assert.equal(config.env, "development");
  });

  test("parses comments, export, quotes and escapes", () => {
    const parsed = parseEnvFile(
      [
        "# comment",
        "",
        "export A=1",
        "B = two words # note",
        "C='single # kept'",
        'D="line\\nnext \\"q\\""',
        "E=",
        "F=x#y",
      ].join("\n"),
    );
    assert.deepEqual(parsed, { A: "1", B: "two words", C: "single # kept", D: 'line\nnext "q"', E: "", F: "x#y" });
  });

  test("a line that is not NAME=value is E_CONFIG_ENV_FILE naming the line", async () => {
    assert.throws(
      () => parseEnvFile("A=1\nnot a line\n", "/app/.env"),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, "E_CONFIG_ENV_FILE");
        assert.match(error.message, /\/app\/\.env line 2/);
        return true;
      },
    );
    await assert.rejects(loadConfig(appFolder(`{}`, 'A="unclosed\n'), {}, {}), { code: "E_CONFIG_ENV_FILE" });
  });
});

describe("APP_ENV", () => {
  test("the documented environments start", async () => {
    const root = appFolder(`{}`);
    for (const env of ["development", "test"]) assert.equal((await loadConfig(root, {}, { APP_ENV: env })).env, env);
    assert.equal(
      (await loadConfig(root, {}, { APP_ENV: "production", SECRET_KEY: crypto.randomUUID() })).env,
      "production",
    );
  });

  test("an undeclared environment such as staging is E_CONFIG_UNKNOWN_ENV, not a development start", async () => {
    await assert.rejects(
      loadConfig(appFolder(`{}`), {}, { APP_ENV: "staging" }),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, "E_CONFIG_UNKNOWN_ENV");
        assert.match(error.message, /"staging"/);
        assert.match(error.message, /development, test, production/);
        assert.match(error.message, /environments: \{ "staging"/);
        return true;
      },
    );
  });

  test("a typo gets a suggestion", async () => {
    await assert.rejects(loadConfig(appFolder(`{}`), {}, { APP_ENV: "prodution" }), /Did you mean "production"\?/);
  });

  test("an environment the app declares under environments starts with its section", async () => {
    const root = appFolder(`{ logLevel: "info", environments: { staging: { logLevel: "warn" } } }`);
    const config = await loadConfig(root, {}, { APP_ENV: "staging" });
    assert.equal(config.env, "staging");
    assert.equal(config.logLevel, "warn");
  });

  test("an environments section that is not an object is E_CONFIG_INVALID, not a crash", async () => {
    await assert.rejects(loadConfig(appFolder(`{ environments: { staging: null } }`), {}, {}), {
      code: "E_CONFIG_INVALID",
    });
    await assert.rejects(loadConfig(appFolder(`{ environments: ["production"] }`), {}, {}), {
      code: "E_CONFIG_INVALID",
    });
  });

  test("env given in code is checked the same way", async () => {
    await assert.rejects(loadConfig(appFolder(`{}`), { env: "qa" }, {}), { code: "E_CONFIG_UNKNOWN_ENV" });
  });
});

/**
 * Unknown config keys are a start-up error: the host, the
 * framework and every plugin declare the keys they read; anything else in the merged config or in
 * any `environments` section stops the start with a suggestion.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { createHost, type HostOptions } from "../src/plugin-api.js";
import type { HostPlugin } from "../src/plugin-api.js";
import { conventions, testResponder } from "./fixtures.js";

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function appFolder(config: string): string {
  const root = mkdtempSync(join(tmpdir(), "koa-host-keys-"));
  roots.push(root);
  mkdirSync(join(root, "lib"));
  writeFileSync(join(root, "lib", "config.mjs"), `export const config = ${config};\n`);
  return root;
}

async function build(config: string, options: Partial<HostOptions> = {}) {
  const host = await createHost({
    root: appFolder(config),
    conventions,
    responder: () => testResponder,
    modules: [],
    ...options,
    config: { env: "test", logRequests: false, ...options.config },
  });
  await host.close();
  return host;
}

const cachePlugin: HostPlugin = { name: "cache", configKeys: { cacheTtl: true, cache: { sessionCookie: true } } };

describe("unknown config keys", () => {
  test("the host's own keys, a plugin's keys and the app's appKeys are accepted", async () => {
    const host = await build(
      `{ logLevel: "warn", bodyLimits: { json: "2kb" }, cacheTtl: 5, cache: { sessionCookie: "s" }, pageSize: 3, appKeys: ["pageSize"] }`,
      {
        plugins: [cachePlugin],
      },
    );
    assert.equal((host.config as unknown as Record<string, unknown>)["pageSize"], 3);
  });

  test("a misspelt top-level key is E_CONFIG_UNKNOWN_KEY with a suggestion and the known keys", async () => {
    await assert.rejects(build(`{ logLevl: "warn" }`), (error: Error & { code?: string }) => {
      assert.equal(error.code, "E_CONFIG_UNKNOWN_KEY");
      assert.match(error.message, /"logLevl"/);
      assert.match(error.message, /Did you mean "logLevel"\?/);
      assert.match(error.message, /secretKey/);
      assert.match(error.message, /appKeys: \["logLevl"\]/);
      return true;
    });
  });

  test("an unknown key inside a declared block is named with its path", async () => {
    await assert.rejects(build(`{ bodyLimits: { jsn: "1kb" } }`), (error: Error & { code?: string }) => {
      assert.equal(error.code, "E_CONFIG_UNKNOWN_KEY");
      assert.match(error.message, /"bodyLimits\.jsn"/);
      assert.match(error.message, /Did you mean "json"\?/);
      assert.match(error.message, /Known keys of bodyLimits: json, form, text, fileSize/);
      return true;
    });
    await assert.rejects(
      build(`{ cache: { sessionCookei: "s" } }`, { plugins: [cachePlugin] }),
      /"cache\.sessionCookei".*Did you mean "sessionCookie"/s,
    );
  });

  test("a key only a plugin reads is unknown when that plugin is absent, unless the framework declares it", async () => {
    await assert.rejects(build(`{ cacheTtl: 5 }`), { code: "E_CONFIG_UNKNOWN_KEY" });
    await build(`{ cacheTtl: 5 }`, { configKeys: [{ cacheTtl: true }] });
  });

  test("keys from the config option of the code are checked too", async () => {
    await assert.rejects(build(`{}`, { config: { sesionUrl: "memory:" } }), /Did you mean "sessionUrl"\?/);
  });

  test("every environments section is checked, not only the running one", async () => {
    await assert.rejects(
      build(`{ environments: { production: { logRequest: false } } }`),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, "E_CONFIG_UNKNOWN_KEY");
        assert.match(error.message, /environments\.production/);
        assert.match(error.message, /Did you mean "logRequests"\?/);
        return true;
      },
    );
  });
});

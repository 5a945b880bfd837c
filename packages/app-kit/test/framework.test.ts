// defineFramework assembles an app from a framework's parts: its conventions and responder, the
// kit's app options and batteries, its own plugins before and after them, and the app's after all.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import type { Responder } from "@fwkit/koa-host/plugin";
import { sendHtmlError, sendText } from "@fwkit/koa-host/plugin";
import { inject } from "@fwkit/koa-host/testing";
import { defineConventions, type ViewModule } from "routing-kernel";
import { DEFAULT_BATTERIES, defineFramework, FrameworkView } from "../src/index.js";

const root = mkdtempSync(join(tmpdir(), "app-kit-"));
after(() => rmSync(root, { recursive: true, force: true }));

class Base extends FrameworkView {}

/** Strings as text, errors as the built-in page: enough to serve a view. */
const textResponder: Responder = {
  prepare: () => (ctx, result) => sendText(ctx, String(result)),
  renderError: (ctx, info) => sendHtmlError(ctx, info),
  describe: () => "text",
};

class Pages extends Base {
  index(): string {
    return `env ${this.config.env}`;
  }
}
const modules: ViewModule[] = [{ name: "main", exports: { Pages } }];

const seen: { migrate?: boolean; batteries?: string[] } = {};
const framework = defineFramework({
  name: "kit-test",
  conventions: defineConventions({ baseClass: Base, trailingSlash: false }),
  responder: () => textResponder,
  configKeys: [{ kitTest: true }],
  parts: () => ({
    before: [{ name: "first" }],
    after(batteries, migrate) {
      seen.migrate = migrate;
      seen.batteries = Object.keys(batteries);
      return [{ name: "last-of-framework" }];
    },
  }),
});

/** Quiet, the data battery alone on (an in-memory SQLite database). */
const QUIET = {
  env: "test",
  logLevel: "silent",
  logRequests: false,
  dbUrl: "sqlite::memory:",
  batteries: Object.fromEntries(DEFAULT_BATTERIES.map((battery) => [battery.key, battery.key === "data"])),
};

describe("defineFramework", () => {
  test("an app serves its views with the kit's base view, and its plugins run in order: framework's, batteries, framework's, app's", async () => {
    const host = await framework.createApp({
      root,
      modules,
      config: { ...QUIET, kitTest: 1 },
      plugins: [{ name: "app-plugin" }],
    });
    try {
      const res = await inject(host, "/pages");
      assert.equal(res.statusCode, 200);
      assert.equal(res.body, "env test");
      assert.deepEqual(
        host.runtime.plugins.map((plugin) => plugin.name),
        ["first", "data", "last-of-framework", "app-plugin", "openapi"],
      );
      assert.deepEqual(seen.batteries, ["data"]);
      assert.equal(seen.migrate, false);
    } finally {
      await host.close();
    }
  });

  test("autoMigrate reaches the framework's plugins when the data battery is on", async () => {
    const host = await framework.createApp({ root, modules, config: { ...QUIET, autoMigrate: true } });
    await host.close();
    assert.equal(seen.migrate, true);
  });

  test("unknown app options and config keys are refused at start-up", async () => {
    await assert.rejects(framework.createApp({ root, modules, bogus: 1 } as never), { code: "E_UNKNOWN_OPTION" });
    await assert.rejects(framework.createApp({ root, modules, config: { ...QUIET, kitTst: 1 } }), {
      code: "E_CONFIG_UNKNOWN_KEY",
    });
    assert.throws(() => framework.defineApp({ root, viewModules: ["main"], views: ["main"] }), {
      code: "E_OPTION_ALIAS_TWICE",
    });
  });

  test("defineApp builds the same app when asked, and mounts its apps under the parent's base path", async () => {
    const child = framework.defineApp({ root, modules, config: QUIET });
    const parent = await framework
      .defineApp({ root, modules: [], config: QUIET, mounts: { "/child": child } })
      .create();
    try {
      const res = await inject(parent, "/child/pages");
      assert.equal(res.statusCode, 200);
      assert.equal(parent.mounts[0]?.host.runtime.basePath, "/child");
    } finally {
      await parent.close();
    }
  });
});

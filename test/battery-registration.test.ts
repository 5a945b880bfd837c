// A battery is one entry: registered once through the app kit, it runs in fw-a's and fw-b's apps
// alike, switchable with `batteries` and with its config keys checked, with no change in either
// framework. The fixture battery below answers one path with a greeting from its config block.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Middleware } from "koa";
import { DEFAULT_BATTERIES, defineBattery, registerBattery } from "../packages/app-kit/src/index.js";
import { defineConfigSchema, key } from "../packages/koa-host/src/config-schema/index.js";
import { inject } from "../packages/koa-host/src/testing/index.js";
import { createApp as createFwA } from "../packages/fw-a/src/index.js";
import { createApp as createFwB } from "../packages/fw-b/src/index.js";

const root = mkdtempSync(join(tmpdir(), "battery-registration-"));
after(() => rmSync(root, { recursive: true, force: true }));

/** The fixture's one key, declared once. */
const fixtureConfig = defineConfigSchema(
  { fixture: key.block({ greeting: key.string({ doc: "The answer.", default: "hello" }) }, { doc: "The fixture." }) },
  { invalid: (path, expected, value) => new Error(`${path} must be ${expected}, not ${String(value)}`) },
);

/** The fixture: its switch `batteries.fixture`, its key `fixture.greeting`, and one answer. */
const fixtureBattery = defineBattery({
  key: "fixture",
  config: fixtureConfig,
  plugin: ({ config }) => {
    const { greeting } = fixtureConfig.resolve(config).fixture;
    const answer: Middleware = (ctx, next) => {
      if (ctx.path !== "/fixture-battery") return next();
      ctx.body = greeting;
      return undefined;
    };
    return { name: "fixture", configKeys: fixtureConfig.configKeys, phases: { request: () => [answer] } };
  },
});

/** Quiet, and the built-in batteries off: only the fixture runs. */
const BASE = {
  env: "test",
  logLevel: "silent",
  logRequests: false,
  batteries: Object.fromEntries(DEFAULT_BATTERIES.map((battery) => [battery.key, false])) as Record<string, boolean>,
};

const frameworks = { "fw-a": createFwA, "fw-b": createFwB } as const;

describe("a battery registered through the app kit runs in both frameworks", () => {
  let unregister: () => void = () => {};
  before(() => {
    unregister = registerBattery(fixtureBattery);
  });
  after(() => unregister());

  for (const [name, createApp] of Object.entries(frameworks)) {
    test(`${name}: the battery is on by default and reads its own config key`, async () => {
      const host = await createApp({
        root,
        modules: [],
        config: { ...BASE, fixture: { greeting: `hello from ${name}` } },
      });
      try {
        assert.ok(
          host.runtime.plugins.some((plugin) => plugin.name === "fixture"),
          `${name} runs the fixture battery's plugin`,
        );
        const res = await inject(host, "/fixture-battery");
        assert.equal(res.statusCode, 200);
        assert.equal(res.body, `hello from ${name}`);
      } finally {
        await host.close();
      }
    });

    test(`${name}: batteries.fixture = false switches it off`, async () => {
      const host = await createApp({
        root,
        modules: [],
        config: { ...BASE, batteries: { ...BASE.batteries, fixture: false } },
      });
      try {
        assert.equal((await inject(host, "/fixture-battery")).statusCode, 404);
      } finally {
        await host.close();
      }
    });

    test(`${name}: a misspelt key in its block is refused at start-up`, async () => {
      await assert.rejects(createApp({ root, modules: [], config: { ...BASE, fixture: { greting: "x" } } }), {
        code: "E_CONFIG_UNKNOWN_KEY",
      });
    });

    test(`${name}: a switch that is not a boolean is refused at start-up`, async () => {
      await assert.rejects(
        createApp({ root, modules: [], config: { ...BASE, batteries: { ...BASE.batteries, fixture: "off" } } }),
        { code: "E_BATTERY_SWITCH" },
      );
    });
  }

  test("a second battery under the same key is refused", () => {
    assert.throws(() => registerBattery(fixtureBattery), { code: "E_BATTERY_TWICE" });
    assert.throws(() => registerBattery(defineBattery({ key: "data", plugin: () => ({ name: "other-data" }) })), {
      code: "E_BATTERY_TWICE",
    });
  });
});

describe("once unregistered, the battery is gone from both frameworks", () => {
  for (const [name, createApp] of Object.entries(frameworks)) {
    test(`${name}: its switch and keys are unknown again`, async () => {
      await assert.rejects(
        createApp({ root, modules: [], config: { ...BASE, batteries: { ...BASE.batteries, fixture: true } } }),
        (error: Error & { code?: string }) => {
          assert.equal(error.code, "E_BATTERY_SWITCH");
          assert.match(
            error.message,
            new RegExp(`known: ${DEFAULT_BATTERIES.map((battery) => battery.key).join(", ")}\\)`),
          );
          return true;
        },
      );
      await assert.rejects(createApp({ root, modules: [], config: { ...BASE, fixture: { greeting: "x" } } }), {
        code: "E_CONFIG_UNKNOWN_KEY",
      });
    });
  }
});

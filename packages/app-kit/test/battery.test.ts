// The battery entry: its declaration is checked, its switch read from `batteries`, and the
// autoMigrate rule decided once, for every framework of the kit.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { AppConfig } from "@fwkit/koa-host";
import {
  autoMigrates,
  batterySwitches,
  DEFAULT_BATTERIES,
  defineBattery,
  FRAMEWORK_CONFIG_KEYS,
} from "../src/index.js";

const configOf = (values: Record<string, unknown>) => ({ env: "test", ...values }) as unknown as AppConfig;

describe("defineBattery", () => {
  test("a key that is not a name, or no plugin function, is refused", () => {
    assert.throws(() => defineBattery({ key: "two words", plugin: () => ({ name: "x" }) }), {
      code: "E_BATTERY_INVALID",
    });
    assert.throws(() => defineBattery({ key: "", plugin: () => ({ name: "x" }) }), { code: "E_BATTERY_INVALID" });
    assert.throws(() => defineBattery({ key: "jobs" } as never), { code: "E_BATTERY_INVALID" });
  });

  test("the built-in batteries run security before data before services, and their switches are the kit's config keys", () => {
    const keys = DEFAULT_BATTERIES.map((battery) => battery.key);
    assert.ok(
      keys.indexOf("security") < keys.indexOf("data") && keys.indexOf("data") < keys.indexOf("services"),
      keys.join(", "),
    );
    assert.deepEqual(Object.keys(FRAMEWORK_CONFIG_KEYS["batteries"] as object), keys);
  });

  test("a battery's config keys come from its schema, and its request slots are named", () => {
    for (const battery of DEFAULT_BATTERIES) {
      assert.ok(battery.config, `${battery.key} declares a config schema`);
      assert.equal(battery.configKeys, battery.config.configKeys, battery.key);
    }
    const data = DEFAULT_BATTERIES.find((battery) => battery.key === "data");
    assert.equal(data?.state["db"]?.name, "db");
    assert.throws(() => defineBattery({ key: "x", config: {} as never, plugin: () => ({ name: "x" }) }), {
      code: "E_BATTERY_INVALID",
      message: /defineConfigSchema/,
    });
  });
});

describe("battery switches", () => {
  const allOn = Object.fromEntries(DEFAULT_BATTERIES.map((battery) => [battery.key, true]));

  test("every battery is on unless set to false", () => {
    assert.deepEqual(batterySwitches(configOf({})), allOn);
    assert.deepEqual(batterySwitches(configOf({ batteries: { data: false } })), { ...allOn, data: false });
  });

  test("a switch that is not a boolean, or names no battery, is refused naming the known ones", () => {
    assert.throws(() => batterySwitches(configOf({ batteries: { data: "no" } })), {
      code: "E_BATTERY_SWITCH",
      message: new RegExp(`batteries\\.data.*known: ${Object.keys(allOn).join(", ")}\\)`),
    });
    assert.throws(() => batterySwitches(configOf({ batteries: { jobz: false } })), {
      code: "E_BATTERY_SWITCH",
      message: /batteries\.jobz/,
    });
  });
});

describe("autoMigrate", () => {
  test("on in development, off elsewhere, unless the config says", () => {
    assert.equal(autoMigrates(configOf({ env: "development" })), true);
    assert.equal(autoMigrates(configOf({ env: "production" })), false);
    assert.equal(autoMigrates(configOf({ env: "production", autoMigrate: true })), true);
    assert.equal(autoMigrates(configOf({ env: "development", autoMigrate: false })), false);
  });
});

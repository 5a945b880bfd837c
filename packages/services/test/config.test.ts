import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { readServicesConfig } from "../src/config.js";

describe("services config", () => {
  test("defaults, the host's static keys, and redisUrl as the signals Redis", () => {
    const config = readServicesConfig({
      root: "/app",
      env: "production",
      secretKey: "k",
      redisUrl: "redis://127.0.0.1:6379",
      static: { dir: "public", prefix: "/assets", maxAge: 3600 },
      signals: { names: ["order.paid"] },
    });
    assert.equal(config.storageUrl, undefined);
    assert.equal(config.cacheUrl, undefined);
    assert.equal(config.sessionCookie, "session");
    assert.equal(config.storage.publicPath, "/uploads");
    assert.equal(config.signalsUrl, "redis://127.0.0.1:6379");
    assert.deepEqual(config.signals.names, ["order.paid"]);
    assert.deepEqual(config.assets, { dir: "public", prefix: "/assets", maxAge: 3600, bundles: {} });
    assert.equal(
      readServicesConfig({ root: "/app", signalsUrl: "redis://a", redisUrl: "redis://b" }).signalsUrl,
      "redis://a",
    );
  });

  test("strings read by the one rule of every battery: numbers and comma-separated lists", () => {
    const config = readServicesConfig({
      root: "/a",
      storage: { maxBytes: "1024", allowedTypes: "image/png, image/jpeg" },
      assets: { maxAge: "30" },
    });
    assert.equal(config.storage.maxBytes, 1024);
    assert.deepEqual(config.storage.allowedTypes, ["image/png", "image/jpeg"]);
    assert.equal(config.assets.maxAge, 30);
  });

  test("wrong shapes are start-up errors naming the key", () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{}, /"root"/],
      [{ root: "/a", mailUrl: 25 }, /"mailUrl"/],
      [{ root: "/a", storage: { maxBytes: "1mb" } }, /"storage\.maxBytes"/],
      [{ root: "/a", storage: { allowedTypes: 5 } }, /"storage\.allowedTypes"/],
      [{ root: "/a", cache: [] }, /"cache"/],
      [{ root: "/a", signals: { names: [1] } }, /"signals\.names"/],
      [{ root: "/a", assets: { bundles: "app.js" } }, /"assets\.bundles"/],
    ];
    for (const [input, message] of cases) {
      assert.throws(
        () => readServicesConfig(input),
        { code: "E_SERVICES_CONFIG_INVALID", message },
        JSON.stringify(input),
      );
    }
  });

  test("production refuses the log: mail catcher (E_MAIL_LOG_IN_PRODUCTION); development and a real transport are fine", () => {
    for (const mailUrl of ["log:", "LOG:", " log:"]) {
      assert.throws(
        () => readServicesConfig({ root: "/a", env: "production", mailUrl }),
        { code: "E_MAIL_LOG_IN_PRODUCTION", message: /MAIL_URL is log:/ },
        mailUrl,
      );
    }
    assert.equal(readServicesConfig({ root: "/a", env: "development", mailUrl: "log:" }).mailUrl, "log:");
    assert.equal(
      readServicesConfig({ root: "/a", env: "production", mailUrl: "smtp://127.0.0.1:25" }).mailUrl,
      "smtp://127.0.0.1:25",
    );
    assert.equal(readServicesConfig({ root: "/a", env: "production" }).mailUrl, undefined);
  });
});

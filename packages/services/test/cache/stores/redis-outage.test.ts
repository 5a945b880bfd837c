// Regression (Redis stopped under load): while the cache's Redis is down, a cache read or
// write is E_SERVICE_UNREACHABLE (503, naming the cache), not an unexpected 500; it works again once
// Redis is back, with no new connection made by the app.
import assert from "node:assert/strict";
import { test } from "node:test";
import { startRedis } from "@fwkit/test-servers";
import { E_SERVICE_UNREACHABLE } from "../../../src/errors.js";
import { createCache } from "../../../src/cache/cache.js";

test("a cache whose Redis is down answers E_SERVICE_UNREACHABLE (503) and recovers when Redis is back", async () => {
  const redis = await startRedis();
  const cache = await createCache(`${redis.url}?prefix=outage-test:`);
  try {
    await cache.set("k", "v", 60);
    await redis.stop();
    for (const operation of [() => cache.get("k"), () => cache.set("k", "w", 60), () => cache.delete("k")]) {
      await assert.rejects(operation(), (error: unknown) => {
        assert.ok(error instanceof E_SERVICE_UNREACHABLE, String(error));
        assert.equal((error as { status?: number }).status, 503);
        assert.match((error as Error).message, /The cache at redis:\/\/127\.0\.0\.1:\d+ is not reachable/);
        return true;
      });
    }
    await redis.start();
    let value: unknown;
    for (let i = 0; i < 100 && value !== "again"; i++) {
      try {
        await cache.set("k", "again", 60);
        value = await cache.get("k");
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    assert.equal(value, "again");
  } finally {
    await cache.close();
    await redis.close();
  }
});

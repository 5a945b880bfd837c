// Regression (Redis stopped under load): while the cache's Redis is down, a read is a miss and a
// write is dropped, at once and without waiting for the reconnect (the page is served without its
// cached copy, never a 503 after seconds of retries); the outage is logged once, not per call. A
// delete still fails (E_SERVICE_UNREACHABLE, 503): a lost invalidation would serve stale data later.
// Everything works again once Redis is back, with no new connection made by the app.
import assert from "node:assert/strict";
import { test } from "node:test";
import { startRedis } from "@fwkit/test-servers";
import { Redis } from "ioredis";
import { E_SERVICE_UNREACHABLE } from "../../../src/errors.js";
import { createCache } from "../../../src/cache/cache.js";
import type { RedisStore } from "../../../src/cache/stores/redis.js";

function recordingLogger() {
  const lines: string[] = [];
  const write = (_details: object, message: string) => {
    lines.push(message);
  };
  return { lines, logger: { warn: write, info: write, error: write } };
}

async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  // Only ends a hang: the wait ends at the event, however busy the machine.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`${what} did not happen`);
}

test("a cache whose Redis is down reads as a miss and drops writes, logs once, and recovers when Redis is back", async () => {
  const redis = await startRedis();
  const { lines, logger } = recordingLogger();
  const cache = await createCache(`${redis.url}?prefix=outage-test:`, { logger });
  try {
    await cache.set("k", "v", 60);
    const store = cache.store as RedisStore;
    // Commands are not queued while the connection is down: they fail at once and count as misses.
    assert.equal(store.client.options.enableOfflineQueue, false);
    await redis.stop();
    for (let i = 0; i < 20; i++) {
      assert.equal(await cache.get("k"), undefined, "a read while Redis is down is a miss");
      await cache.set("k", `w${i}`, 60); // dropped, no error
    }
    assert.equal(await cache.remember("r", 60, () => 5), 5, "remember computes when the cache is down");
    await assert.rejects(cache.delete("k"), (error: unknown) => {
      assert.ok(error instanceof E_SERVICE_UNREACHABLE, String(error));
      assert.equal((error as { status?: number }).status, 503);
      assert.match((error as Error).message, /The cache at redis:\/\/127\.0\.0\.1:\d+ is not reachable/);
      return true;
    });
    await assert.rejects(store.check(), E_SERVICE_UNREACHABLE, "readiness still sees the outage");
    const down = lines.filter((line) => line.startsWith("cache: Redis at") && line.includes("failed"));
    assert.equal(down.length, 1, `one line for the outage, not one per read or write:\n${lines.join("\n")}`);

    await redis.start();
    await eventually("the cache answering again", async () => {
      await cache.set("k", "again", 60);
      return (await cache.get("k")) === "again";
    });
    assert.ok(
      lines.some((line) => line.includes("is back")),
      lines.join("\n"),
    );
  } finally {
    await cache.close();
    await redis.close();
  }
});

test("a cache read on a Redis that stops answering (paused) is a miss after the command timeout, not a wait", async () => {
  const redis = await startRedis();
  const { logger } = recordingLogger();
  const cache = await createCache(`${redis.url}?prefix=pause-test:`, { logger });
  const admin = new Redis(redis.url);
  try {
    await cache.set("k", "v", 60);
    // CLIENT PAUSE holds every client's commands for 3 s; the connection stays up, so only the
    // command timeout can end the read. A read that waited for Redis would return "v".
    await admin.call("CLIENT", "PAUSE", "3000", "ALL");
    assert.equal(await cache.get("k"), undefined, "the read gave up on the paused Redis and counted as a miss");
    assert.equal(cache.outage?.down, true);
    await eventually("the pause ending", async () => (await cache.get("k")) === "v");
    assert.equal(cache.outage?.down, false, "a command that works again ends the outage");
  } finally {
    admin.disconnect();
    await cache.close();
    await redis.close();
  }
});

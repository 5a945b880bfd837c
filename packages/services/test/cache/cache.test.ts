import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { requireServer, serverSkip } from "@fwkit/test-servers";
import { createCache, type Cache } from "../../src/cache/cache.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The cache backends the shared suite runs against. */
const backends: Array<{ name: string; skip: { skip: string | false }; url: () => Promise<string> }> = [
  { name: "memory", skip: { skip: false }, url: async () => "memory://" },
  {
    name: "Redis",
    skip: serverSkip,
    url: async () =>
      `${await requireServer("redis")}?prefix=${encodeURIComponent(`services-cache-test:${randomUUID()}:`)}`,
  },
];

for (const backend of backends) {
  describe(`cache on ${backend.name}`, backend.skip, () => {
    let cache: Cache;
    before(async () => {
      cache = await createCache(await backend.url());
    });
    after(() => cache.close());

    test("set, get and delete JSON values; null is a value, absence is undefined", async () => {
      await cache.set("user:1", { name: "Ann", tags: ["a"], n: 1.5 });
      assert.deepEqual(await cache.get("user:1"), { name: "Ann", tags: ["a"], n: 1.5 });
      await cache.set("nothing", null);
      assert.equal(await cache.get("nothing"), null);
      assert.equal(await cache.get("never-set"), undefined);
      await cache.delete("user:1");
      assert.equal(await cache.get("user:1"), undefined);
    });

    // A short TTL is only checked after it has passed, and "within the TTL" uses a TTL far longer
    // than the test: a busy machine can take longer than a short TTL between two calls.
    test("an entry expires after its TTL; one with a longer TTL is kept", async () => {
      await cache.set("short", "soon gone", 0.3);
      await cache.set("long", "kept", 600);
      await sleep(450);
      assert.equal(await cache.get("short"), undefined);
      assert.equal(await cache.get("long"), "kept");
    });

    test("remember computes once within the TTL, shares concurrent calls, and recomputes after", async () => {
      let runs = 0;
      const compute = async () => {
        runs++;
        await sleep(20);
        return { run: runs };
      };
      const [a, b] = await Promise.all([cache.remember("slow", 600, compute), cache.remember("slow", 600, compute)]);
      assert.deepEqual([a, b, runs], [{ run: 1 }, { run: 1 }, 1]);
      assert.deepEqual(await cache.remember("slow", 600, compute), { run: 1 });
      assert.deepEqual(await cache.remember("brief", 0.3, compute), { run: 2 });
      await sleep(450);
      assert.deepEqual(await cache.remember("brief", 0.3, compute), { run: 3 });
    });

    test("bad TTLs and values are refused with codes", async () => {
      for (const ttl of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
        await assert.rejects(cache.set("k", 1, ttl), { code: "E_CACHE_TTL_INVALID" }, String(ttl));
      }
      await assert.rejects(
        cache.remember("k", 0, () => 1),
        { code: "E_CACHE_TTL_INVALID" },
      );
      await assert.rejects(cache.set("k", undefined), { code: "E_CACHE_VALUE_INVALID" });
      const cyclic: { self?: unknown } = {};
      cyclic.self = cyclic;
      await assert.rejects(cache.set("k", cyclic), { code: "E_CACHE_VALUE_INVALID" });
    });
  });
}

describe("cache URLs", () => {
  test("the memory store is bounded by ?max=", async () => {
    const cache = await createCache("memory://?max=2");
    await cache.set("a", 1);
    await cache.set("b", 2);
    await cache.set("c", 3);
    assert.deepEqual([await cache.get("a"), await cache.get("b"), await cache.get("c")], [undefined, 2, 3]);
  });

  test("unknown schemes and options are refused; an unreachable Redis fails at start naming it", async () => {
    for (const url of ["memcached://127.0.0.1", "memory://?max=0", "memory://?ttl=5", "nope"]) {
      await assert.rejects(createCache(url), { code: "E_SERVICE_URL_INVALID" }, url);
    }
    await assert.rejects(
      createCache("redis://:hunter2@127.0.0.1:1", { logger: { error: () => {}, warn: () => {} } }),
      (error: Error) => {
        assert.equal((error as Error & { code: string }).code, "E_SERVICE_UNREACHABLE");
        assert.match(error.message, /127\.0\.0\.1:1/);
        assert.doesNotMatch(error.message, /hunter2/);
        return true;
      },
    );
  });
});

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { LoginLimiter, MemoryAttemptCounter, type AttemptCounter } from "./login-limit.js";

describe("LoginLimiter", () => {
  test("refuses after the account limit with Retry-After, counting accounts case-insensitively", async () => {
    const limiter = new LoginLimiter(new MemoryAttemptCounter(), { account: 2, address: 10, windowSeconds: 30 });
    await limiter.check("Alice", "10.0.0.1");
    await limiter.fail("Alice", "10.0.0.1");
    await limiter.fail(" alice ", "10.0.0.2");
    await assert.rejects(limiter.check("ALICE", "10.0.0.3"), (error: Error & { status?: number; headers?: Record<string, string> }) => {
      assert.equal(error.status, 429);
      assert.equal(error.headers?.["Retry-After"], "30");
      return true;
    });
    await limiter.succeed("alice");
    await limiter.check("alice", "10.0.0.1");
  });

  test("the memory counter stays bounded under a flood of distinct keys", async () => {
    const counter = new MemoryAttemptCounter(100);
    for (let i = 0; i < 1000; i++) await counter.hit(`k${i}`, 60_000);
    assert.equal(await counter.peek("k0"), undefined, "the oldest keys were dropped");
    assert.equal((await counter.peek("k999"))?.count, 1);
  });

  test("a failing counter store is a 503, not a 500", async () => {
    const broken: AttemptCounter = {
      hit: () => Promise.reject(new Error("down")),
      peek: () => Promise.reject(new Error("down")),
      reset: () => Promise.reject(new Error("down")),
      close: async () => {},
    };
    const limiter = new LoginLimiter(broken, { account: 1, address: 1, windowSeconds: 1 });
    await assert.rejects(limiter.check("a", "b"), { code: "E_LOGIN_LIMIT_UNAVAILABLE", status: 503 });
    await assert.rejects(limiter.fail("a", "b"), { code: "E_LOGIN_LIMIT_UNAVAILABLE" });
  });
});

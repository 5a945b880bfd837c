import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  accountSubject,
  clientAddressKey,
  identifierSubject,
  LoginLimiter,
  MemoryAttemptCounter,
  normaliseIdentifier,
  type AttemptCounter,
} from "../src/login-limit.js";

describe("LoginLimiter", () => {
  test("refuses after the account limit with Retry-After; identifiers count after trim, case and NFKC folding", async () => {
    const limiter = new LoginLimiter(new MemoryAttemptCounter(), { account: 3, address: 10, windowSeconds: 30 });
    await limiter.attempt(identifierSubject("Alice"), "10.0.0.1");
    await limiter.attempt(identifierSubject(" alice "), "10.0.0.2");
    await limiter.attempt(identifierSubject("\uff21\uff2c\uff29\uff23\uff25\u3000"), "10.0.0.4");
    await assert.rejects(
      limiter.attempt(identifierSubject("ALICE"), "10.0.0.3"),
      (error: Error & { status?: number; headers?: Record<string, string> }) => {
        assert.equal(error.status, 429);
        assert.equal(error.headers?.["Retry-After"], "30");
        return true;
      },
    );
    await limiter.succeed(identifierSubject("alice"), "10.0.0.1");
    await limiter.attempt(identifierSubject("alice"), "10.0.0.1");
    await limiter.attempt(accountSubject(7), "10.0.0.1");
  });

  test("a burst of parallel attempts is counted atomically: no more pass than the limit", async () => {
    const limiter = new LoginLimiter(new MemoryAttemptCounter(), { account: 5, address: 20, windowSeconds: 60 });
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, () => limiter.attempt(accountSubject(1), "10.0.0.9")),
    );
    assert.equal(results.filter((r) => r.status === "fulfilled").length, 5);
    assert.ok(
      results.slice(5).every((r) => r.status === "rejected" && (r.reason as { status?: number }).status === 429),
    );
  });

  test("a success takes its attempt back from the address; a refused attempt is not counted", async () => {
    const counter = new MemoryAttemptCounter();
    const limiter = new LoginLimiter(counter, { account: 100, address: 2, windowSeconds: 60 });
    for (let i = 0; i < 5; i++) {
      await limiter.attempt(accountSubject(i), "10.0.0.5");
      await limiter.succeed(accountSubject(i), "10.0.0.5");
    }
    await limiter.attempt(accountSubject(10), "10.0.0.5");
    await limiter.attempt(accountSubject(11), "10.0.0.5");
    await assert.rejects(limiter.attempt(accountSubject(12), "10.0.0.5"), { status: 429 });
    // The refused attempt did not count against account 12.
    const limited = new LoginLimiter(counter, { account: 1, address: 100, windowSeconds: 60 });
    await limited.attempt(accountSubject(12), "10.0.0.6");
  });

  test("normaliseIdentifier folds what users and attackers vary; subjects of accounts and names never collide", () => {
    assert.equal(normaliseIdentifier("  Ada@Example.TEST\t"), "ada@example.test");
    assert.equal(normaliseIdentifier("\uff41\uff44\uff41"), "ada", "full-width letters (NFKC)");
    assert.equal(normaliseIdentifier(42), "42");
    assert.equal(normaliseIdentifier({ $ne: null }), '{"$ne":null}');
    assert.notEqual(accountSubject("ada"), identifierSubject("ada"));
  });

  test("per-address keys: IPv4-mapped IPv6 is the IPv4 address, IPv6 counts per /64", () => {
    assert.equal(clientAddressKey("203.0.113.9"), "203.0.113.9");
    assert.equal(clientAddressKey("::ffff:203.0.113.9"), "203.0.113.9");
    assert.equal(clientAddressKey("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
    assert.equal(clientAddressKey("2001:0db8:0001:0002:ffff:0:0:9"), "2001:db8:1:2::/64");
    assert.equal(clientAddressKey("2001:db8::1"), "2001:db8:0:0::/64");
    assert.equal(clientAddressKey("unknown"), "unknown");
  });

  test("the memory counter stays bounded under a flood of distinct keys, never dropping a live window", async () => {
    const counter = new MemoryAttemptCounter(100);
    for (let i = 0; i < 1000; i++) await counter.hit(`k${i}`, 60_000);
    assert.equal((await counter.peek("k0"))?.count, 1, "the oldest live window is kept");
    assert.equal(await counter.peek("k999"), undefined, "no room: the new key is not counted");
    assert.ok((await counter.hit("k999", 60_000)).count > 1_000_000, "and answers a count no limit allows");
  });

  test("a failing counter store is a 503, not a 500", async () => {
    const broken: AttemptCounter = {
      take: () => Promise.reject(new Error("down")),
      release: () => Promise.reject(new Error("down")),
      reset: () => Promise.reject(new Error("down")),
      close: async () => {},
    };
    const limiter = new LoginLimiter(broken, { account: 1, address: 1, windowSeconds: 1 });
    await assert.rejects(limiter.attempt("a", "b"), { code: "E_LOGIN_LIMIT_UNAVAILABLE", status: 503 });
    await assert.rejects(limiter.succeed("a", "b"), { code: "E_LOGIN_LIMIT_UNAVAILABLE" });
  });
});

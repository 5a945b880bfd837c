import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { WindowCounts } from "../../src/counters/window-counts.js";

describe("WindowCounts", () => {
  test("take counts every key only when all are under their limits; a refusal names the longest wait and counts nothing", () => {
    const counts = new WindowCounts();
    const limits = [
      { key: "a", limit: 2 },
      { key: "b", limit: 3 },
    ];
    assert.deepEqual(counts.take(limits, 60_000, 1000), { allowed: true, resetAt: 0 });
    assert.deepEqual(counts.take(limits, 60_000, 2000), { allowed: true, resetAt: 0 });
    assert.deepEqual(counts.take(limits, 60_000, 3000), { allowed: false, resetAt: 61_000, refusedBy: 0 });
    assert.equal(counts.peek("b", 3000)?.count, 2, "the refused take did not count b");
    counts.release("a");
    assert.equal(counts.take(limits, 60_000, 4000).allowed, true);
    assert.equal(counts.take(limits, 60_000, 62_000).allowed, true, "a new window after the old one ended");
    assert.equal(counts.peek("a", 62_000)?.count, 1);
  });

  test("release never goes below zero; reset forgets; the map stays bounded under distinct keys", () => {
    const counts = new WindowCounts(100);
    counts.release("none");
    counts.take([{ key: "x", limit: 1 }], 1000, 0);
    counts.release("x");
    counts.release("x");
    assert.equal(counts.peek("x", 0)?.count, 0);
    counts.reset("x");
    assert.equal(counts.peek("x", 0), undefined);
    for (let i = 0; i < 1000; i++) counts.take([{ key: `k${i}`, limit: 5 }], 60_000, 0);
    assert.ok(counts.size <= 100, `${counts.size} counters`);
    assert.equal(counts.peek("k0", 0)?.count, 1, "a live window is never dropped to make room");
    assert.equal(counts.peek("k999", 0), undefined, "new counters are refused while the table is full");
    assert.equal(counts.take([{ key: "k999", limit: 5 }], 60_000, 60_000).allowed, true, "room once windows end");
  });

  test("a full table never lifts a lockout: a flood of new keys is refused, the locked key stays locked", () => {
    const counts = new WindowCounts(50);
    const lock = [{ key: "acct:bob", limit: 5 }];
    for (let i = 0; i < 5; i++) assert.equal(counts.take(lock, 900_000, 0).allowed, true);
    assert.equal(counts.take(lock, 900_000, 0).allowed, false, "bob is locked out");
    const refusals: number[] = [];
    for (let i = 0; i < 10_000; i++) {
      const result = counts.take([{ key: `invite:${i}`, limit: 3 }], 3_600_000, 1000 + i);
      if (!result.allowed) refusals.push(result.resetAt);
    }
    assert.equal(refusals.length, 10_000 - 49, "the table fails closed once full");
    assert.ok(
      refusals.every((at) => at === 900_000),
      "a refusal waits for the first window to end",
    );
    assert.deepEqual(counts.take(lock, 900_000, 20_000), { allowed: false, resetAt: 900_000, refusedBy: 0 });
  });

  test("windows counted back to zero make room (they limit nothing); limits of several windows are taken together", () => {
    const counts = new WindowCounts(3);
    counts.take([{ key: "a", limit: 1 }], 60_000, 0);
    counts.take([{ key: "b", limit: 1 }], 60_000, 0);
    counts.take([{ key: "c", limit: 1 }], 60_000, 0);
    assert.equal(counts.take([{ key: "d", limit: 1 }], 60_000, 0).allowed, false);
    counts.release("b");
    assert.equal(counts.take([{ key: "d", limit: 1 }], 60_000, 1).allowed, true);
    assert.equal(counts.peek("b", 1), undefined);
    assert.equal(counts.peek("a", 1)?.count, 1);
    const two = new WindowCounts();
    two.take(
      [
        { key: "per-key", limit: 3, windowMs: 3_600_000 },
        { key: "per-client", limit: 10 },
      ],
      60_000,
      0,
    );
    assert.equal(two.peek("per-key", 0)?.resetAt, 3_600_000);
    assert.equal(two.peek("per-client", 0)?.resetAt, 60_000);
  });
});

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
    assert.deepEqual(counts.take(limits, 60_000, 3000), { allowed: false, resetAt: 61_000 });
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
    assert.equal(counts.peek("k0", 0), undefined, "the oldest keys were dropped");
    assert.equal(counts.peek("k999", 0)?.count, 1);
  });
});

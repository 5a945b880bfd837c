import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { MemorySessionStore } from "../../src/stores/memory.js";

describe("MemorySessionStore", () => {
  test("stores a copy, expires on read, and sweeps what nobody reads", async () => {
    const store = new MemorySessionStore();
    const data = { a: 1 };
    await store.set("live", data, Date.now() + 60_000);
    data.a = 2;
    assert.deepEqual(await store.get("live"), { a: 1 }, "later changes to the caller's object do not leak in");
    await store.set("old", { b: 1 }, Date.now() - 1);
    await store.set("older", { c: 1 }, Date.now() - 1);
    assert.equal(await store.get("old"), undefined);
    assert.equal(store.has("old"), false, "dropped on read");
    assert.equal(await store.sweep(), 1, "the unread expired session is swept");
    assert.equal(store.size, 1);
  });
});

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ServiceLogger } from "../logger.js";
import { signal, SIGNALS } from "./names.js";
import { defaultRegistry, SignalRegistry } from "./signal.js";

function recorder(): ServiceLogger & { errors: Array<{ details: object; message: string }> } {
  const errors: Array<{ details: object; message: string }> = [];
  return { errors, error: (details, message) => errors.push({ details, message }), warn: () => {} };
}

describe("signals", () => {
  test("the same name gives the same signal, in a registry and process-wide", () => {
    const registry = new SignalRegistry();
    assert.equal(registry.get("order.paid"), registry.get("order.paid"));
    assert.notEqual(registry.get("order.paid"), registry.get("order.shipped"));
    assert.equal(signal("test.same"), signal("test.same"));
    assert.equal(signal("test.same"), defaultRegistry().get("test.same"));
  });

  test("send awaits every receiver in connection order with the payload and meta", async () => {
    const registry = new SignalRegistry();
    const seen: string[] = [];
    const paid = registry.get<{ id: number }>("order.paid");
    paid.connect(async (payload, meta) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      seen.push(`first ${payload.id} ${meta.name} ${meta.origin}`);
    });
    paid.connect((payload) => {
      seen.push(`second ${payload.id}`);
    });
    await paid.send({ id: 7 });
    assert.deepEqual(seen, ["first 7 order.paid local", "second 7"]);
  });

  test("connect returns a disconnect function; the same function connected twice runs twice", async () => {
    const registry = new SignalRegistry();
    let calls = 0;
    const receiver = () => {
      calls++;
    };
    const tick = registry.get("clock.tick");
    const off1 = tick.connect(receiver);
    const off2 = tick.connect(receiver);
    await tick.send(undefined);
    assert.equal(calls, 2);
    off1();
    await tick.send(undefined);
    assert.equal(calls, 3);
    off2();
    off2();
    await tick.send(undefined);
    assert.equal(calls, 3);
    assert.equal(tick.receiverCount, 0);
  });

  test("a receiver that throws or rejects is logged and the sender and other receivers go on", async () => {
    const logger = recorder();
    const registry = new SignalRegistry(logger);
    const seen: string[] = [];
    const failing = registry.get<string>("job.done");
    failing.connect(function breaks() {
      throw new Error("boom");
    });
    failing.connect(async function rejects() {
      throw new Error("async boom");
    });
    failing.connect((payload) => {
      seen.push(payload);
    });
    await failing.send("ok");
    assert.deepEqual(seen, ["ok"]);
    assert.equal(logger.errors.length, 2);
    assert.match(logger.errors[0]!.message, /job\.done/);
    assert.equal((logger.errors[0]!.details as { receiver: string }).receiver, "breaks");
    assert.equal(((logger.errors[1]!.details as { err: Error }).err).message, "async boom");
  });

  test("invalid names are refused with E_SIGNAL_NAME_INVALID", () => {
    const registry = new SignalRegistry();
    for (const name of ["", "Order.Paid", "order..paid", ".x", "a b", "x."]) {
      assert.throws(() => registry.get(name), { code: "E_SIGNAL_NAME_INVALID" }, name);
    }
  });

  test("the framework's names are exported as constants", () => {
    assert.deepEqual(Object.values(SIGNALS).sort(), [
      "file.stored",
      "mail.sent",
      "request.finished",
      "request.started",
      "user.logged_in",
      "user.logged_out",
    ]);
  });
});

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ServiceLogger } from "../../src/logger.js";
import { signal, SIGNALS } from "../../src/signals/names.js";
import { defaultRegistry, SignalRegistry } from "../../src/signals/signal.js";

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
    assert.equal((logger.errors[1]!.details as { err: Error }).err.message, "async boom");
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

describe("queued receivers", () => {
  function queueOf(registry: SignalRegistry) {
    const queued: Array<{ signal: string; receiver: string; payload: unknown }> = [];
    registry.queue = {
      async enqueue(signal, receiver, payload) {
        queued.push({ signal, receiver, payload });
      },
    };
    return queued;
  }

  test("with a queue, a queued receiver's delivery is queued and run later by runQueued; the others run in place", async () => {
    const registry = new SignalRegistry();
    const queued = queueOf(registry);
    const seen: string[] = [];
    const paid = registry.get<{ id: number }>("order.paid");
    paid.connect(
      function audit(payload) {
        seen.push(`audit ${payload.id}`);
      },
      { queued: true },
    );
    paid.connect((payload) => {
      seen.push(`inline ${payload.id}`);
    });
    await paid.send({ id: 3 });
    assert.deepEqual(seen, ["inline 3"]);
    assert.deepEqual(queued, [{ signal: "order.paid", receiver: "audit", payload: { id: 3 } }]);
    await registry.runQueued("order.paid", "audit", { id: 3 });
    assert.deepEqual(seen, ["inline 3", "audit 3"]);
  });

  test("a delivery bridged from another process is not queued again; without a queue a queued receiver runs in place", async () => {
    const registry = new SignalRegistry();
    const seen: string[] = [];
    const paid = registry.get<{ id: number }>("order.paid");
    paid.connect((payload) => void seen.push(`audit ${payload.id}`), { queued: true, name: "audit" });
    await paid.send({ id: 1 });
    assert.deepEqual(seen, ["audit 1"], "no queue: called in place");
    const queued = queueOf(registry);
    await paid.send({ id: 2 }, { origin: "remote" });
    assert.deepEqual(queued, []);
    assert.deepEqual(seen, ["audit 1"]);
  });

  test("runQueued throws the receiver's error (so the job is retried) and E_SIGNAL_RECEIVER_UNKNOWN for a receiver never connected", async () => {
    const registry = new SignalRegistry();
    registry.get("order.paid").connect(
      () => {
        throw new Error("SMTP down");
      },
      { queued: true, name: "notify" },
    );
    await assert.rejects(registry.runQueued("order.paid", "notify", {}), /SMTP down/);
    await assert.rejects(
      registry.runQueued("order.paid", "nobody", {}),
      (error: Error & { code?: string }) => error.code === "E_SIGNAL_RECEIVER_UNKNOWN" && /nobody/.test(error.message),
    );
  });

  test("a queued receiver needs a unique name; unknown options are refused", () => {
    const paid = new SignalRegistry().get("order.paid");
    assert.throws(
      () => paid.connect(() => {}, { queued: true }),
      (error: Error & { code?: string }) => error.code === "E_SIGNAL_RECEIVER_NAME",
    );
    paid.connect(() => {}, { queued: true, name: "audit" });
    assert.throws(() => paid.connect(() => {}, { queued: true, name: "audit" }), /already connected/);
    assert.throws(
      () => paid.connect(() => {}, { queue: true } as never),
      (error: Error & { code?: string }) => error.code === "E_UNKNOWN_OPTION",
    );
  });
});

describe("the app's services in a receiver", () => {
  test("a receiver gets the services the registry was given as meta.services, queued or not; without them, asking says why", async () => {
    const registry = new SignalRegistry({ error: () => {}, warn: () => {} });
    const seen: unknown[] = [];
    const failures: unknown[] = [];
    registry.logger = { error: (fields) => void failures.push(fields), warn: () => {} };
    // Queued, though no queue is set: called in place here, and by name as a worker would.
    registry.get<{ id: number }>("order.paid").connect(
      function ship(_payload, meta) {
        seen.push(meta.services.cache);
      },
      { queued: true },
    );
    await registry.get<{ id: number }>("order.paid").send({ id: 1 });
    assert.equal(seen.length, 0);
    assert.match(
      String((failures[0] as { err?: Error }).err?.message),
      /services battery/,
      "without services, the receiver is told why",
    );
    const cache = { get: () => undefined };
    registry.services = { cache } as never;
    await registry.get<{ id: number }>("order.paid").send({ id: 2 });
    await registry.runQueued("order.paid", "ship", { id: 3 });
    assert.deepEqual(seen, [cache, cache]);
  });
});

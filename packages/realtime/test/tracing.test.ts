// What a broadcast publishes for traces on the realtime broadcast tracing channel (the
// observability battery makes the span of it): the channel, its pattern and the event, never the
// payload, in the caller's async context (so the span is a child of the request's or the job's),
// an error for a refused broadcast; and with no subscriber, nothing (a refusal is still a rejection).
import assert from "node:assert/strict";
import { AsyncLocalStorage } from "node:async_hooks";
import { after, before, test } from "node:test";
import { telemetry, type RealtimeBroadcastMessage } from "@fwkit/battery-kit";
import { realtimeOf } from "../src/index.js";
import { channels, startApp, type RunningApp } from "./helpers.js";

let app: RunningApp;
before(async () => {
  app = await startApp({ channels });
});
after(() => app.close());

test("a broadcast is one traced operation in the caller's context: channel, pattern, event, no payload", async () => {
  const caller = new AsyncLocalStorage<string>();
  const seen: Array<{ phase: string; message: RealtimeBroadcastMessage; context: string | undefined }> = [];
  const record = (phase: string) => (message: RealtimeBroadcastMessage) =>
    seen.push({ phase, message: { ...message }, context: caller.getStore() });
  const handlers = {
    start: record("start"),
    end: () => undefined,
    asyncStart: () => undefined,
    error: record("error"),
    asyncEnd: record("asyncEnd"),
  };
  telemetry.realtimeBroadcast.subscribe(handlers);
  try {
    const hub = realtimeOf(app.host)!;
    await caller.run("request-1", () => hub.broadcast("orders/42", "updated", { secret: "not-in-a-span" }));
    await assert.rejects(
      caller.run("request-2", () => hub.broadcast("nowhere", "updated", {})),
      { code: "E_REALTIME_CHANNEL_UNKNOWN" },
    );
  } finally {
    telemetry.realtimeBroadcast.unsubscribe(handlers);
  }
  assert.deepEqual(
    seen.map(({ phase, context }) => [phase, context]),
    [
      ["start", "request-1"],
      ["asyncEnd", "request-1"],
      ["start", "request-2"],
      ["error", "request-2"],
      ["asyncEnd", "request-2"],
    ],
  );
  assert.deepEqual(seen[0]!.message, { channel: "orders/42", pattern: "orders/:id", event: "updated" });
  assert.equal(seen[2]!.message.pattern, "(none)");
  assert.doesNotMatch(JSON.stringify(seen.map((entry) => entry.message)), /not-in-a-span/);
});

test("with no one tracing, nothing is published and a refusal is still a rejected promise", async () => {
  assert.equal(telemetry.realtimeBroadcast.hasSubscribers, false);
  const refused = realtimeOf(app.host)!.broadcast("nowhere", "updated", {});
  assert.ok(refused instanceof Promise);
  await assert.rejects(refused, { code: "E_REALTIME_CHANNEL_UNKNOWN" });
  assert.match(await realtimeOf(app.host)!.broadcast("news", "posted", { n: 1 }), /^\d+-\d+$/);
});

// A realtime broadcast becomes a producer span under what made it (here the request's span), named by
// the channel's pattern with the channel as an attribute and never the payload; a refused
// broadcast's span is an error. The realtime battery's own tests check what it publishes on the
// channel (its name, pattern and event, in the caller's async context); this one what the spans make
// of it, publishing as the battery does.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { telemetry, traceCall } from "@fwkit/battery-kit";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { startApp, TestView } from "./fixtures.js";

const SECRET = "payload-never-in-a-span";

/** What the realtime hub does around a broadcast: the operation, with channel, pattern and event. */
const broadcast = (channel: string, fail: boolean) =>
  traceCall(
    telemetry.realtimeBroadcast,
    () => ({ channel, pattern: "orders/:id", event: "updated" }),
    async () => {
      await new Promise((resolve) => setImmediate(resolve));
      if (fail) throw new Error("Redis did not answer");
      return JSON.stringify({ secret: SECRET }).length;
    },
  );

class Orders extends TestView {
  async index() {
    await broadcast("orders/42", false);
    await broadcast("orders/43", true).catch(() => undefined);
    return { ok: true };
  }
}

async function finished(exporter: InMemorySpanExporter, count: number): Promise<ReadableSpan[]> {
  const deadline = Date.now() + 30_000;
  while (exporter.getFinishedSpans().length < count && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return exporter.getFinishedSpans();
}

test("a broadcast is a producer span under the request that made it: channel as attribute, no payload", async () => {
  const exporter = new InMemorySpanExporter();
  const app = await startApp({ Orders }, { tracing: { enabled: true, exporter, serviceName: "rt-test" } });
  after(() => app.host.close());
  assert.equal((await fetch(`${app.url}/orders`)).status, 200);
  const spans = await finished(exporter, 3);
  const request = spans.find((span) => span.name === "GET Orders.index");
  assert.ok(request, spans.map((span) => span.name).join(", "));
  const sent = spans.filter((span) => span.name === "realtime broadcast orders/:id");
  assert.equal(sent.length, 2, spans.map((span) => span.name).join(", "));
  for (const span of sent) {
    assert.equal(span.parentSpanContext?.spanId, request.spanContext().spanId);
    assert.equal(span.spanContext().traceId, request.spanContext().traceId);
    assert.equal(span.kind, 3 /* PRODUCER */);
    assert.equal(span.attributes["messaging.system"], "fwkit-realtime");
    assert.equal(span.attributes["fwkit.realtime.event"], "updated");
  }
  assert.deepEqual(sent.map((span) => span.attributes["messaging.destination.name"]).sort(), [
    "orders/42",
    "orders/43",
  ]);
  const failed = sent.find((span) => span.attributes["messaging.destination.name"] === "orders/43")!;
  assert.equal(failed.status.code, 2 /* ERROR */);
  assert.doesNotMatch(JSON.stringify(spans.map((span) => [span.name, span.attributes, span.events])), /payload-never/);
});

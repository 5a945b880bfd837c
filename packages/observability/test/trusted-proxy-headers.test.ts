// Every request header only a trusted proxy may write (koa-host's REQUEST_HEADERS, trust "proxy")
// is sent forged from a connection the app does not trust, and the app does not believe it: the
// client's address, scheme, host, request id, trace context and baggage stay the app's own. The
// same probes from a trusted proxy are believed (so each probe can see the difference). A header
// added to the list as "proxy" without a probe here fails the first test.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { proxyHeaders } from "@fwkit/koa-host/plugin";
import { context, propagation, trace } from "@opentelemetry/api";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { startApp, TestView, type TestApp } from "./fixtures.js";

/** What the app believes of a request. */
interface Belief {
  readonly ip: string;
  readonly protocol: string;
  readonly host: string;
  readonly traceId: string | undefined;
  readonly traceState: string | undefined;
  readonly baggage: string | undefined;
}

class Seen extends TestView {
  index() {
    const span = trace.getSpan(context.active())?.spanContext();
    return {
      ip: this.ctx.ip,
      protocol: this.ctx.protocol,
      host: this.ctx.host,
      traceId: span?.traceId,
      traceState: span?.traceState?.serialize(),
      baggage: propagation.getBaggage(context.active())?.getEntry("probe")?.value,
    };
  }
}

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

/** Per header: what to send, and whether the answer shows it was believed. */
const PROBES: Readonly<
  Record<string, { headers: Record<string, string>; believed: (belief: Belief, res: Response) => boolean }>
> = {
  "x-forwarded-for": { headers: { "x-forwarded-for": "203.0.113.9" }, believed: (b) => b.ip === "203.0.113.9" },
  "x-forwarded-proto": { headers: { "x-forwarded-proto": "https" }, believed: (b) => b.protocol === "https" },
  "x-forwarded-host": { headers: { "x-forwarded-host": "evil.example" }, believed: (b) => b.host === "evil.example" },
  "x-request-id": {
    headers: { "x-request-id": "someone-elses-request" },
    believed: (_b, res) => res.headers.get("x-request-id") === "someone-elses-request",
  },
  traceparent: { headers: { traceparent: TRACEPARENT }, believed: (b) => b.traceId === TRACE_ID },
  tracestate: {
    headers: { traceparent: TRACEPARENT, tracestate: "forged=1" },
    believed: (b) => b.traceState?.includes("forged=1") === true,
  },
  baggage: {
    headers: { traceparent: TRACEPARENT, baggage: "probe=forged" },
    believed: (b) => b.baggage === "forged",
  },
};

async function probe(app: TestApp, header: string): Promise<boolean> {
  const { headers, believed } = PROBES[header]!;
  const res = await fetch(`${app.url}/seen`, { headers });
  assert.equal(res.status, 200);
  // The fixture's pages wrap the view's answer in a paragraph.
  const text = (await res.text()).replace(/^<p>|<\/p>\s*$/g, "");
  return believed(JSON.parse(text) as Belief, res);
}

test("every header only a trusted proxy may write has a probe here", () => {
  assert.deepEqual(Object.keys(PROBES).sort(), proxyHeaders().sort());
});

for (const [name, trustProxy, expected] of [
  ["a client (trustProxy names another address)", ["192.0.2.1"], false],
  ["a trusted proxy (trustProxy: loopback)", "loopback", true],
] as const) {
  describe(`headers only a proxy may write, sent by ${name}`, () => {
    let app: TestApp;
    before(async () => {
      app = await startApp({ Seen }, { trustProxy, tracing: { enabled: true, exporter: new InMemorySpanExporter() } });
    });
    after(() => app.host.close());
    for (const header of proxyHeaders()) {
      test(`${header} is ${expected ? "believed" : "ignored"}`, async () => {
        assert.equal(await probe(app, header), expected);
      });
    }
  });
}

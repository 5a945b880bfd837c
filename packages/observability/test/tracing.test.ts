// Traces of a request: the server span named by route continues the incoming traceparent, with the
// template render and a PostgreSQL query as its children (under a view span of their own with
// `viewSpans`); the log lines of the request carry the same trace id; the OTLP HTTP exporter
// delivers the spans to a receiver.
import assert from "node:assert/strict";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { after, describe, test } from "node:test";
import { connect } from "@fwkit/data";
import { requireServer } from "@fwkit/test-servers";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { routePath } from "routing-kernel";
import { E_TRACING_EXPORTER } from "../src/index.js";
import { captureLogs, startApp, TestView } from "./fixtures.js";

let db: Awaited<ReturnType<typeof connect>> | undefined;

class Blog extends TestView {
  @routePath("route", "/:slug")
  async show(slug: string) {
    this.ctx.log.info("showing a post");
    await db!.knex.raw("select ? as slug", [slug]);
    return { slug };
  }
}

/** A page reached by a mailed link: its path holds a credential. */
class Reset extends TestView {
  @routePath("route", "/:token")
  show(token: string) {
    return { length: token.length };
  }
}

/** A view with no database, for the apps started after the first one's pool is closed. */
class Page extends TestView {
  @routePath("route", "/:slug")
  show(slug: string) {
    this.ctx.log.info("showing a page");
    return { slug };
  }
}

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_ID = "00f067aa0ba902b7";
const traceparent = `00-${TRACE_ID}-${PARENT_ID}-01`;

/**
 * The exporter's finished spans once `ready` holds for them: a span ends as its response is sent,
 * which a busy machine can delay past any fixed pause. The deadline only ends a hang.
 */
async function finished(
  exporter: InMemorySpanExporter,
  ready: (spans: readonly ReadableSpan[]) => boolean,
): Promise<ReadableSpan[]> {
  const deadline = Date.now() + 30_000;
  let spans = exporter.getFinishedSpans();
  while (!ready(spans) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    spans = exporter.getFinishedSpans();
  }
  return spans;
}

function child(spans: readonly ReadableSpan[], parent: ReadableSpan, name: RegExp): ReadableSpan {
  const found = spans.find(
    (span) => name.test(span.name) && span.parentSpanContext?.spanId === parent.spanContext().spanId,
  );
  assert.ok(
    found,
    `a child span ${name} of ${parent.name}; spans: ${spans.map((s) => `${s.name} <- ${s.parentSpanContext?.spanId}`).join(", ")}`,
  );
  return found;
}

describe("tracing with an in-memory exporter", async () => {
  const exporter = new InMemorySpanExporter();
  const logs = captureLogs();
  // The test's requests come from loopback, as a balancer's would on this host.
  const app = await startApp(
    { Blog, Reset },
    { tracing: { enabled: true, exporter, serviceName: "blog-test" }, trustProxy: "loopback" },
    { logs },
  );
  db = await connect(await requireServer("postgres"));
  after(async () => {
    await app.host.close();
    await db?.close();
  });

  /** Requests /blog/:slug with the test's traceparent and returns its finished spans and log lines. */
  async function tracedRequest(url: string, slug: string) {
    exporter.reset();
    const res = await fetch(`${url}/blog/${slug}`, { headers: { traceparent } });
    assert.equal(res.status, 200);
    const spans = (
      await finished(exporter, (all) =>
        all.some((span) => span.name === "GET Blog.show" && span.spanContext().traceId === TRACE_ID),
      )
    ).filter((span) => span.spanContext().traceId === TRACE_ID);
    const server = spans.find((span) => span.name === "GET Blog.show");
    assert.ok(server, spans.map((s) => s.name).join(", "));
    const lines = logs.lines.filter((line) => line["trace_id"] === TRACE_ID && String(line["msg"]).includes(slug));
    const inView = logs.lines.find((line) => line["msg"] === "showing a post" && line["span_id"] !== undefined);
    logs.lines.length = 0;
    return { res, spans, server, lines, inView };
  }

  test("a request from a trusted proxy continues its traceparent: server span GET Blog.show, render and knex spans under it", async () => {
    const { res, spans, server, lines, inView } = await tracedRequest(app.url, "hello");
    assert.equal(server.parentSpanContext?.spanId, PARENT_ID);
    assert.equal(server.attributes["http.route"], "/blog/:slug");
    assert.equal(server.attributes["http.response.status_code"], 200);
    assert.equal(server.resource.attributes["service.name"], "blog-test");
    assert.equal(spans.length, 3, `one span per request, its render and its query: ${spans.map((s) => s.name)}`);
    const query = child(spans, server, /^raw postgres$/);
    assert.equal(query.attributes["db.system.name"], "postgres");
    child(spans, server, /^render Blog\.show$/);
    assert.match(server.spanContext().spanId, /^[0-9a-f]{16}$/);

    const requestLine = lines.find((line) => line["msg"] === "GET /blog/hello 200");
    assert.ok(requestLine, `the request line carries the trace id too: ${JSON.stringify(lines)}`);
    assert.equal(requestLine["route"], "Blog.show");
    assert.equal(inView?.["trace_id"], TRACE_ID);
    assert.equal(inView?.["span_id"], server.spanContext().spanId, "a line in the view carries the request's span");
    assert.equal(requestLine["reqId"], res.headers.get("x-request-id"), "the request's id beside its trace");
  });

  test("viewSpans: the view's span between the request's and the render and query; the view's lines carry it", async () => {
    const viewApp = await startApp(
      { Blog },
      { tracing: { enabled: true, exporter, serviceName: "blog-test", viewSpans: true }, trustProxy: "loopback" },
      { logs },
    );
    try {
      const { spans, server, inView } = await tracedRequest(viewApp.url, "viewed");
      const view = child(spans, server, /^Blog\.show$/);
      assert.equal(view.attributes["code.function.name"], "Blog.show");
      child(spans, view, /^raw postgres$/);
      child(spans, view, /^render Blog\.show$/);
      assert.equal(inView?.["span_id"], view.spanContext().spanId);
    } finally {
      await viewApp.host.close();
    }
  });

  test("a secret route parameter (a reset :token) reaches no span: url.path names it", async () => {
    exporter.reset();
    const token = "ObiEoWXvZf3NBOU5ziGjacQG95YPw8XadKJum_Bd_KU";
    const res = await fetch(`${app.url}/reset/${token}`);
    assert.equal(res.status, 200);
    const spans = await finished(exporter, (all) => all.some((span) => span.name === "GET Reset.show"));
    const server = spans.find((span) => span.name === "GET Reset.show");
    assert.ok(server, spans.map((s) => s.name).join(", "));
    assert.equal(server.attributes["url.path"], "/reset/:token");
    assert.doesNotMatch(JSON.stringify(spans.map((span) => [span.name, span.attributes])), new RegExp(token));
  });

  test("a request without traceparent starts a trace of its own; health probes have no span", async () => {
    exporter.reset();
    await (await fetch(`${app.url}/blog/other`)).text();
    await (await fetch(`${app.url}/healthz`)).text();
    const spans = await finished(exporter, (all) => all.some((span) => span.name === "GET Blog.show"));
    const servers = spans.filter((span) => span.kind === 1);
    assert.deepEqual(
      servers.map((span) => span.name),
      ["GET Blog.show"],
    );
    assert.equal(servers[0]!.parentSpanContext, undefined);
    assert.match(servers[0]!.spanContext().traceId, /^[0-9a-f]{32}$/, "a trace id from the provider's generator");
  });
});

describe("a client's forged traceparent (no trusted proxy)", () => {
  test("is not continued: its trace id reaches no span and no log line, and its sampled flag forces no export", async () => {
    const exporter = new InMemorySpanExporter();
    const logs = captureLogs();
    // Sampled at a ratio of 0: only a trusted parent's sampled flag could make a span exported.
    process.env["OTEL_TRACES_SAMPLER"] = "parentbased_traceidratio";
    process.env["OTEL_TRACES_SAMPLER_ARG"] = "0";
    const app = await startApp({ Page }, { tracing: { enabled: true, exporter }, trustProxy: false }, { logs });
    try {
      for (let i = 0; i < 20; i++) {
        const res = await fetch(`${app.url}/page/forged-${i}`, { headers: { traceparent } });
        assert.equal(res.status, 200);
        await res.text();
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      const exported = exporter.getFinishedSpans();
      assert.equal(exported.length, 0, `no forged request is exported: ${exported.map((s) => s.name).join(", ")}`);
      const forged = logs.lines.filter((line) => line["trace_id"] === TRACE_ID);
      assert.deepEqual(forged, [], "the client's trace id is in no log line");
      const requestLines = logs.lines.filter((line) => String(line["msg"]).startsWith("GET /page/forged-"));
      assert.equal(requestLines.length, 20, "every request is logged (none is traced: the sampler samples no root)");
    } finally {
      await app.host.close();
      delete process.env["OTEL_TRACES_SAMPLER"];
      delete process.env["OTEL_TRACES_SAMPLER_ARG"];
    }
  });
});

describe("tracing through OTLP over HTTP", () => {
  test("spans reach an OTLP receiver at OTEL_EXPORTER_OTLP_ENDPOINT once the app closes (batch export)", async () => {
    const received: Array<{ path: string; body: Buffer; type: string | undefined }> = [];
    const receiver = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        received.push({ path: req.url ?? "", body: Buffer.concat(chunks), type: req.headers["content-type"] });
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    process.env["OTEL_EXPORTER_OTLP_ENDPOINT"] = endpoint;
    process.env["OTEL_EXPORTER_OTLP_PROTOCOL"] = "http/json";
    try {
      const app = await startApp({ Blog }, { trustProxy: "loopback" });
      assert.equal(app.plugin.settings.tracing.enabled, true, "the OTLP endpoint variable alone switches tracing on");
      await (await fetch(`${app.url}/blog/otlp`, { headers: { traceparent } })).text();
      await app.host.close();
    } finally {
      delete process.env["OTEL_EXPORTER_OTLP_ENDPOINT"];
      delete process.env["OTEL_EXPORTER_OTLP_PROTOCOL"];
      receiver.close();
    }
    assert.ok(received.length >= 1, "the receiver got an export");
    assert.equal(received[0]!.path, "/v1/traces");
    const body = received.map((r) => r.body.toString()).join("\n");
    assert.ok(body.includes("GET Blog.show"), body.slice(0, 500));
    assert.ok(
      body.includes(TRACE_ID) || body.includes(Buffer.from(TRACE_ID, "hex").toString("base64")),
      "the incoming trace id",
    );
  });

  test("an unknown exporter stops the start: E_TRACING_EXPORTER", async () => {
    await assert.rejects(startApp({ Blog }, { tracing: { enabled: true, exporter: "jaeger" } }), E_TRACING_EXPORTER);
  });

  test("a misspelled tracing key stops the start, naming the known ones; viewSpans takes a boolean (or its strings: yes, off...)", async () => {
    await assert.rejects(startApp({ Blog }, { tracing: { enabled: true, viewSpan: true } }), (error: Error) => {
      assert.match(error.message, /tracing\.viewSpan\b/);
      assert.match(error.message, /viewSpans/);
      return true;
    });
    await assert.rejects(
      startApp({ Blog }, { tracing: { enabled: true, viewSpans: "sometimes" } }),
      /tracing\.viewSpans/,
    );
  });
});

// A sampler that never samples a request's root span (`always_off`, a ratio of 0) is known at
// start-up: the request then gets no span at all, yet its log lines keep their request id; under a
// parent-based one, only a trusted proxy's sampled parent makes the request's spans.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { routePath } from "routing-kernel";
import { rootSampling } from "../src/tracing/sampling.js";
import { captureLogs, startApp, TestView } from "./fixtures.js";

let appLogger: { info(message: string): void } | undefined;

class Page extends TestView {
  @routePath("route", "/:slug")
  async show(slug: string) {
    this.ctx.log.info("showing a page");
    await new Promise((resolve) => setTimeout(resolve, 1));
    appLogger?.info("from the app logger");
    return { slug };
  }
}

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

/** Runs `body` with the sampler variables set, then removes them. */
async function withSampler(name: string, arg: string | undefined, body: () => Promise<void>): Promise<void> {
  process.env["OTEL_TRACES_SAMPLER"] = name;
  if (arg !== undefined) process.env["OTEL_TRACES_SAMPLER_ARG"] = arg;
  try {
    await body();
  } finally {
    delete process.env["OTEL_TRACES_SAMPLER"];
    delete process.env["OTEL_TRACES_SAMPLER_ARG"];
  }
}

describe("the root sampling read from the sampler variables", () => {
  test("only samplers that can never sample a root are told apart; everything else asks the sampler", () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{}, "sampler"],
      [{ OTEL_TRACES_SAMPLER: "always_off" }, "never"],
      [{ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "0" }, "never"],
      [{ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.5" }, "sampler"],
      // A blank ratio is the SDK's default (1); an unknown name is its default sampler.
      [{ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: " " }, "sampler"],
      [{ OTEL_TRACES_SAMPLER: " always_off" }, "sampler"],
      [{ OTEL_TRACES_SAMPLER: "parentbased_always_off" }, "parent"],
      [{ OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0" }, "parent"],
      [{ OTEL_TRACES_SAMPLER: "parentbased_always_on" }, "sampler"],
      [{ OTEL_TRACES_SAMPLER: "always_on" }, "sampler"],
    ];
    for (const [env, expected] of cases) assert.equal(rootSampling(env), expected, JSON.stringify(env));
  });
});

describe("a sampler that drops every request", () => {
  test("always_off: no span is made or exported, and the log lines keep the request id without trace fields", async () => {
    await withSampler("always_off", undefined, async () => {
      const exporter = new InMemorySpanExporter();
      const logs = captureLogs();
      const app = await startApp({ Page }, { tracing: { enabled: true, exporter }, trustProxy: "loopback" }, { logs });
      try {
        const sampled = `00-${TRACE_ID}-00f067aa0ba902b7-01`;
        for (const headers of [{}, { traceparent: sampled }] as Array<Record<string, string>>) {
          const res = await fetch(`${app.url}/page/quiet`, { headers });
          assert.equal(res.status, 200);
          await res.text();
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
        assert.deepEqual(
          exporter.getFinishedSpans().map((span) => span.name),
          [],
        );
        const lines = logs.lines.filter((line) => line["msg"] === "showing a page");
        assert.equal(lines.length, 2, JSON.stringify(logs.lines));
        for (const line of lines) {
          assert.equal(typeof line["reqId"], "string", "the request id rides without a span");
          assert.equal(line["span_id"], undefined, "no span, no span id");
        }
      } finally {
        await app.host.close();
      }
    });
  });

  for (const logContext of [false, true]) {
    test(`always_off, logContext ${logContext}: requests pay nothing for tracing; the app logger's lines ${logContext ? "carry" : "lack"} the reqId`, async () => {
      await withSampler("always_off", undefined, async () => {
        const exporter = new InMemorySpanExporter();
        const logs = captureLogs();
        const app = await startApp({ Page }, { tracing: { enabled: true, exporter }, logContext }, { logs });
        appLogger = app.host.logger;
        try {
          assert.equal(
            app.plugin.phases?.front?.(undefined as never) === undefined,
            !logContext,
            "no request middleware unless logContext asks for the request's scope",
          );
          assert.equal(app.plugin.phases?.route?.(undefined as never), undefined, "no view span middleware");
          const res = await fetch(`${app.url}/page/quiet`);
          assert.equal(res.status, 200);
          await res.text();
          const line = logs.lines.find((l) => l["msg"] === "from the app logger");
          assert.ok(line, JSON.stringify(logs.lines));
          assert.equal(line["reqId"], logContext ? res.headers.get("x-request-id") : undefined);
          assert.equal(line["trace_id"], undefined);
        } finally {
          appLogger = undefined;
          await app.host.close();
        }
      });
    });
  }
});

describe("a parent-based sampler that samples no root", () => {
  test("a trusted proxy's sampled parent is traced; a request without one is not", async () => {
    await withSampler("parentbased_always_off", undefined, async () => {
      const exporter = new InMemorySpanExporter();
      const logs = captureLogs();
      const app = await startApp({ Page }, { tracing: { enabled: true, exporter }, trustProxy: "loopback" }, { logs });
      try {
        await (await fetch(`${app.url}/page/alone`)).text();
        const res = await fetch(`${app.url}/page/traced`, {
          headers: { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` },
        });
        assert.equal(res.status, 200);
        await res.text();
        const deadline = Date.now() + 30_000;
        while (!exporter.getFinishedSpans().some((span) => span.name === "GET Page.show") && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 20));
        const spans = exporter.getFinishedSpans();
        const traces = new Set(spans.map((span) => span.spanContext().traceId));
        assert.deepEqual([...traces], [TRACE_ID], "only the traced request has spans");
        const server = spans.find((span) => span.name === "GET Page.show");
        assert.ok(server, spans.map((span) => span.name).join(", "));
        assert.equal(server.parentSpanContext?.spanId, "00f067aa0ba902b7");
        const traced = logs.lines.find((line) => line["msg"] === "showing a page" && line["trace_id"] === TRACE_ID);
        assert.equal(traced?.["span_id"], server.spanContext().spanId, "a line in the view carries the request's span");
      } finally {
        await app.host.close();
      }
    });
  });
});

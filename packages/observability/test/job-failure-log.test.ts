// A failed job's log lines carry its trace: with tracing on, the warning of a failed attempt and
// the error of the last one have the trace_id of the job's span (the trace of the request that
// dispatched it), so the operator finds the request behind a failing job.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { defineJob, jobsOf, jobsPlugin } from "@fwkit/jobs";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { z } from "zod";
import { captureLogs, startApp, TestView } from "./fixtures.js";

const Notify = defineJob({
  name: "notify-task",
  schema: z.object({}),
  attempts: 2,
  backoff: { type: "fixed", delay: 1 },
  handle() {
    throw new Error("The mailer is not available");
  },
});

let dispatch: (() => Promise<unknown>) | undefined;

class Tasks extends TestView {
  async index() {
    await dispatch!();
    return { queued: true };
  }
}

test("the failed attempts of a job dispatched in a request are logged with the job span's trace_id", async () => {
  const exporter = new InMemorySpanExporter();
  const logs = captureLogs();
  const app = await startApp(
    { Tasks },
    { tracing: { enabled: true, exporter, serviceName: "failures" }, queueUrl: "memory:", jobs: { fake: false } },
    { logs, plugins: [jobsPlugin()] },
  );
  after(() => app.host.close());
  dispatch = () => jobsOf(app.host)!.dispatch(Notify, {});
  assert.equal((await fetch(`${app.url}/tasks`)).status, 200);
  const failures = () => logs.lines.filter((line) => line["job"] === "notify-task");
  // Waits for both attempts' lines; the deadline only ends a hang (a busy machine stays well inside it).
  const deadline = Date.now() + 60_000;
  while (failures().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const [warning, error] = failures();
  assert.equal(warning?.["level"], 40, JSON.stringify(failures()));
  assert.equal(error?.["level"], 50);
  const jobSpans = exporter.getFinishedSpans().filter((span) => span.name === "job default notify-task");
  const request = exporter.getFinishedSpans().find((span) => span.name === "GET Tasks.index");
  assert.ok(
    request && jobSpans.length === 2,
    exporter
      .getFinishedSpans()
      .map((span) => span.name)
      .join(", "),
  );
  for (const line of [warning!, error!]) {
    assert.equal(line["trace_id"], request.spanContext().traceId, "the request's trace");
    assert.ok(
      jobSpans.some((span) => span.spanContext().spanId === line["span_id"]),
      "the job's own span",
    );
  }
});

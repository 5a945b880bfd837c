// A job continues the trace of the request that dispatched it: its span carries the request's trace
// id with the request's span as parent, on the in-process queue, the inline runner and BullMQ on Redis;
// with tracing off, nothing is stored with the job.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, describe, test } from "node:test";
import { createJobQueue, defineJob, type JobQueue } from "@fwkit/jobs";
import { requireServer, serverUrls } from "@fwkit/test-servers";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { Redis } from "ioredis";
import { z } from "zod";
import { startApp, TestView } from "./fixtures.js";

let queue: JobQueue | undefined;
let dispatched = "";

let notify = false;

const Notify = defineJob({ name: "notify", schema: z.object({}), attempts: 1, handle() {} });
const Ship = defineJob({
  name: "ship",
  schema: z.object({ order: z.number() }),
  attempts: 1,
  async handle() {
    // A job that dispatches another: the second continues the trace too.
    if (notify) await queue!.dispatch(Notify, {});
  },
});

class Orders extends TestView {
  async index() {
    dispatched = (await queue!.dispatch(Ship, { order: 7 })).id;
    return { queued: true };
  }
}

const TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
const traceparent = `00-${TRACE_ID}-b7ad6b7169203331-01`;

async function waitFor<T>(what: string, find: () => T | undefined | Promise<T | undefined>): Promise<T> {
  // The deadline only ends a hang: a busy machine stays well inside it.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const found = await find();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function uniquePrefix(): string {
  return `fwobs-test-${randomBytes(4).toString("hex")}`;
}

/** The stored options of a BullMQ job, as Redis holds them. */
async function storedOptions(prefix: string, id: string): Promise<Record<string, unknown>> {
  const redis = new Redis(serverUrls.redis);
  try {
    const opts = await redis.hget(`${prefix}:default:${id}`, "opts");
    assert.ok(opts, `job ${id} is stored under ${prefix}`);
    return JSON.parse(opts) as Record<string, unknown>;
  } finally {
    redis.disconnect();
  }
}

async function dropPrefix(prefix: string): Promise<void> {
  const redis = new Redis(serverUrls.redis);
  try {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

describe("a job dispatched by a request continues its trace", async () => {
  const exporter = new InMemorySpanExporter();
  // The test's fetch stands for a trusted proxy on this machine: only then is its traceparent continued.
  const app = await startApp(
    { Orders },
    { tracing: { enabled: true, exporter, serviceName: "jobs-test" }, trustProxy: "loopback" },
  );
  after(() => app.host.close());

  /** Requests /orders (which dispatches), then finds the job's span and checks its parentage. */
  async function requestAndCheck(start?: () => Promise<unknown>): Promise<ReadableSpan> {
    exporter.reset();
    const res = await fetch(`${app.url}/orders`, { headers: { traceparent } });
    assert.equal(res.status, 200, await res.text());
    // A worker started after the request runs the job outside the request's async context: only the
    // stored trace context can tie the two.
    const worker = start ? await start() : undefined;
    try {
      const job = await waitFor("the job's span", () =>
        exporter.getFinishedSpans().find((span) => span.name === "job default ship"),
      );
      await waitFor("the request's spans", () =>
        exporter.getFinishedSpans().find((span) => span.name === "GET Orders.index"),
      );
      const spans = exporter.getFinishedSpans();
      const server = spans.find((span) => span.name === "GET Orders.index")!;
      assert.equal(server.spanContext().traceId, TRACE_ID);
      assert.equal(job.spanContext().traceId, TRACE_ID, "the job's span is in the request's trace");
      assert.equal(
        job.parentSpanContext?.spanId,
        server.spanContext().spanId,
        "the request that dispatched (its span) is the job span's parent",
      );
      assert.equal(job.kind, 4, "a consumer span");
      return job;
    } finally {
      await (worker as { close?: (grace: number) => Promise<unknown> } | undefined)?.close?.(1000);
    }
  }

  test("memory: a worker started after the request", async () => {
    queue = await createJobQueue({ url: "memory:", jobs: [Ship], bind: false });
    try {
      await requestAndCheck(() => queue!.work());
    } finally {
      await queue.close();
    }
  });

  test("sync: the job runs in the dispatch", async () => {
    queue = await createJobQueue({ url: "sync:", jobs: [Ship], bind: false });
    try {
      await requestAndCheck();
    } finally {
      await queue.close();
    }
  });

  test("redis:// (BullMQ): the trace context is stored with the job, beside its payload", async () => {
    await requireServer("redis");
    const prefix = uniquePrefix();
    queue = await createJobQueue({ url: serverUrls.redis, prefix, jobs: [Ship], bind: false });
    try {
      await requestAndCheck(async () => {
        const opts = await storedOptions(prefix, dispatched);
        assert.match(String(opts["tm"]), new RegExp(`"traceparent":"00-${TRACE_ID}-[0-9a-f]{16}-01"`));
        return queue!.work();
      });
    } finally {
      await queue.close();
      await dropPrefix(prefix);
    }
  });

  for (const backend of ["memory:", "redis://"] as const) {
    test(`${backend} a job dispatched by a job continues the trace, with the dispatching job's span as parent`, async () => {
      const prefix = uniquePrefix();
      if (backend === "redis://") await requireServer("redis");
      queue = await createJobQueue({
        url: backend === "memory:" ? "memory:" : serverUrls.redis,
        prefix,
        jobs: [Ship, Notify],
        bind: false,
      });
      notify = true;
      let worker: Awaited<ReturnType<JobQueue["work"]>> | undefined;
      try {
        // The worker stays up until the second job has run (requestAndCheck closes only what start returns).
        const ship = await requestAndCheck(async () => void (worker = await queue!.work()));
        const spans = await waitFor("the second job's span", () => {
          const found = exporter.getFinishedSpans().find((span) => span.name === "job default notify");
          return found ? exporter.getFinishedSpans() : undefined;
        });
        const second = spans.find((span) => span.name === "job default notify")!;
        assert.equal(second.spanContext().traceId, TRACE_ID);
        assert.equal(
          second.parentSpanContext?.spanId,
          ship.spanContext().spanId,
          "the job that dispatched is the parent",
        );
      } finally {
        notify = false;
        await worker?.close(1000);
        await queue.close();
        if (backend === "redis://") await dropPrefix(prefix);
      }
    });
  }
});

test("with tracing off, a dispatched job stores no trace context", async () => {
  await requireServer("redis");
  // The traceparent comes from a trusted proxy, so nothing but tracing being off keeps it out of the job.
  const app = await startApp(
    { Orders },
    { metrics: { enabled: true, port: 0, host: "127.0.0.1" }, trustProxy: "loopback" },
  );
  const prefix = uniquePrefix();
  queue = await createJobQueue({ url: serverUrls.redis, prefix, jobs: [Ship], bind: false });
  try {
    assert.equal(app.plugin.settings.tracing.enabled, false);
    const res = await fetch(`${app.url}/orders`, { headers: { traceparent } });
    assert.equal(res.status, 200);
    const opts = await storedOptions(prefix, dispatched);
    assert.equal(opts["tm"], undefined, JSON.stringify(opts));
    assert.equal(opts["telemetry"], undefined);
  } finally {
    await queue.close();
    await app.host.close();
    await dropPrefix(prefix);
  }
});

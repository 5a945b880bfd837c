// What a worker runs is checked again: a payload written to the queue by anything but the app's own
// dispatch (the dashboard's "add job", an edit, a hand-written Redis entry) that fails the job's
// schema, or a sealed job's payload the app did not seal, fails the job at once with
// E_JOB_PAYLOAD_INVALID and never reaches handle. Sealed payloads are kept encrypted: no key or
// value of the queue's Redis, and no failed-job listing, holds the secret in clear.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { requireServer, serverUrls } from "@fwkit/test-servers";
import { Redis } from "ioredis";
import { z } from "zod";
import { createJobQueue, defineJob, type JobQueue } from "../src/index.js";
import type { BullMQDriver } from "../src/drivers/bullmq.js";
import type { QueuedJob } from "../src/drivers/types.js";
import { dropPrefix, uniquePrefix, waitFor } from "./helpers.js";

const SECRET = "https://shop.example/reset-password/tok_9f8e7d6c5b4a39281706";
const seen: Array<{ job: string; payload: unknown }> = [];

const SetPrice = defineJob({
  name: "checks.set-price",
  schema: z.object({ productId: z.number().int(), price: z.number().positive() }),
  attempts: 5,
  backoff: { type: "fixed", delay: 10 },
  handle(payload) {
    seen.push({ job: "set-price", payload });
  },
});

const MailLink = defineJob({
  name: "checks.mail-link",
  schema: z.object({ to: z.string().email(), link: z.string().url() }),
  attempts: 5,
  backoff: { type: "fixed", delay: 10 },
  sealed: true,
  handle(payload) {
    seen.push({ job: "mail-link", payload });
  },
});

const Count = defineJob({
  name: "checks.count",
  schema: z.object({ count: z.string().transform(Number) }),
  handle(payload) {
    seen.push({ job: "count", payload });
  },
});

const options = (queue: string) => ({
  queue,
  attempts: 5,
  backoff: { type: "fixed" as const, delay: 10 },
  delay: 0,
  priority: undefined,
  jobId: undefined,
});

/** Writes a job to the queue as the dashboard or a Redis client would: no dispatch, no checks. */
async function addByHand(queue: JobQueue, name: string, payload: unknown): Promise<void> {
  if (queue.kind === "bullmq") await (queue.driver as BullMQDriver).queue("default").add(name, payload);
  else await queue.driver.add({ name, payload, options: options("default") } satisfies QueuedJob);
}

const prefix = uniquePrefix("checks");
const open: JobQueue[] = [];
after(async () => {
  for (const queue of open) await queue.close();
  await dropPrefix(serverUrls.redis, prefix);
});

for (const backend of ["memory", "bullmq"] as const) {
  describe(`on ${backend}`, () => {
    const make = async () => {
      const url = backend === "bullmq" ? await requireServer("redis") : "memory:";
      const queue = await createJobQueue({
        url,
        prefix: `${prefix}-${backend}`,
        jobs: [SetPrice, MailLink, Count],
        secretKeys: ["a-test-secret-key-for-sealed-payloads-0123456789"],
        bind: false,
      });
      open.push(queue);
      return queue;
    };

    test("a payload its schema refuses fails at once (one attempt) with E_JOB_PAYLOAD_INVALID; handle never runs", async () => {
      const queue = await make();
      seen.length = 0;
      const worker = await queue.work();
      try {
        await addByHand(queue, "checks.set-price", { productId: 1, price: -999 });
        await waitFor("the refused job to fail", async () => (await queue.failed()).length === 1);
        const [failed] = await queue.failed();
        assert.match(failed!.error, /queued payload of the job checks\.set-price was refused.*price/);
        assert.equal(failed!.attemptsMade, 1);
        await queue.dispatch(SetPrice, { productId: 1, price: 4.2 });
        await waitFor("the dispatched job to run", () => seen.length === 1);
        assert.deepEqual(seen, [{ job: "set-price", payload: { productId: 1, price: 4.2 } }]);
      } finally {
        await worker.close(1000);
        await queue.clearFailed();
      }
    });

    test("a sealed job's payload is kept encrypted; a hand-made one (plain, or a forged seal) fails at once", async () => {
      const queue = await make();
      seen.length = 0;
      await queue.dispatch(MailLink, { to: "victim@example.test", link: SECRET });
      if (backend === "bullmq") {
        const redis = new Redis(serverUrls.redis);
        try {
          const keys = await redis.keys(`${prefix}-${backend}*`);
          assert.ok(keys.length > 0);
          for (const key of keys) {
            assert.doesNotMatch(key, /tok_9f8e|victim/);
            const type = await redis.type(key);
            const dump =
              type === "hash"
                ? JSON.stringify(await redis.hgetall(key))
                : type === "string"
                  ? String(await redis.get(key))
                  : type === "list"
                    ? JSON.stringify(await redis.lrange(key, 0, -1))
                    : type === "zset"
                      ? JSON.stringify(await redis.zrange(key, 0, -1))
                      : "";
            assert.doesNotMatch(dump, /tok_9f8e|victim@example/, `${key} holds the secret: ${dump.slice(0, 300)}`);
          }
        } finally {
          redis.disconnect();
        }
      }
      const worker = await queue.work();
      try {
        await waitFor("the sealed job to run", () => seen.length === 1);
        assert.deepEqual(seen, [{ job: "mail-link", payload: { to: "victim@example.test", link: SECRET } }]);
        await addByHand(queue, "checks.mail-link", { to: "someone@outside.example", link: "https://evil.example/" });
        await addByHand(queue, "checks.mail-link", { sealed: "fwkit-sealed.v1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" });
        await waitFor("both forged jobs to fail", async () => (await queue.failed()).length === 2);
        for (const failed of await queue.failed()) {
          assert.match(failed.error, /was not sealed by this app/);
          assert.equal(failed.attemptsMade, 1);
        }
        assert.equal(seen.length, 1);
      } finally {
        await worker.close(1000);
        await queue.clearFailed();
      }
    });

    test("the failed-job listing shows a sealed job's payload sealed", async () => {
      const Failing = defineJob({
        name: "checks.failing-sealed",
        schema: z.object({ link: z.string() }),
        attempts: 1,
        sealed: true,
        handle() {
          throw new Error("the mail server is down");
        },
      });
      const queue = await make();
      queue.register(Failing);
      const worker = await queue.work();
      try {
        await queue.dispatch(Failing, { link: SECRET });
        await waitFor("the job to fail", async () => (await queue.failed()).length === 1);
        const listed = JSON.stringify(await queue.failed());
        assert.doesNotMatch(listed, /tok_9f8e/);
        assert.match(listed, /fwkit-sealed\.v1\./);
      } finally {
        await worker.close(1000);
        await queue.clearFailed();
      }
    });

    test("a schema that transforms runs on the worker: dispatch keeps its input, handle gets its output", async () => {
      const queue = await make();
      seen.length = 0;
      const worker = await queue.work();
      try {
        await queue.dispatch(Count, { count: "3" });
        await waitFor("the job to run", () => seen.length === 1);
        assert.deepEqual(seen, [{ job: "count", payload: { count: 3 } }]);
      } finally {
        await worker.close(1000);
      }
    });
  });
}

test("sealed jobs on Redis need the app's secret key: a dispatch without one names the option", async () => {
  const queue = await createJobQueue({
    url: await requireServer("redis"),
    prefix: `${prefix}-nokey`,
    jobs: [MailLink],
    bind: false,
  });
  open.push(queue);
  await assert.rejects(queue.dispatch(MailLink, { to: "a@example.test", link: SECRET }), {
    code: "E_JOB_DEFINITION_INVALID",
    message: /secretKeys/,
  });
});

// BullMQ on the machine's Redis runs the same shared cases as the in-process queue.
import assert from "node:assert/strict";
import { test } from "node:test";
import { requireServer, serverUrls } from "@fwkit/test-servers";
import { z } from "zod";
import { createJobQueue, defineJob, runWorker } from "../src/index.js";
import { Greet } from "./fixtures/jobs.js";
import { dropPrefix, uniquePrefix, waitFor } from "./helpers.js";
import { queueSuite } from "./suite.js";

const prefix = uniquePrefix("suite");
queueSuite(
  "redis:// (BullMQ)",
  async () => {
    await requireServer("redis");
    return createJobQueue({ url: serverUrls.redis, prefix });
  },
  () => dropPrefix(serverUrls.redis, prefix),
);

test("a queued job whose name the worker's process does not know is failed at once, naming it, and the worker goes on", async () => {
  await requireServer("redis");
  const own = uniquePrefix("unknown");
  const Ghost = defineJob({ name: "ghost", schema: z.object({}), handle() {} });
  const producer = await createJobQueue({ url: serverUrls.redis, prefix: own, jobs: [Ghost], bind: false });
  const consumer = await createJobQueue({ url: serverUrls.redis, prefix: own, jobs: [Greet], bind: false });
  const worker = await runWorker(consumer, { signals: [], schedules: false });
  try {
    const { id } = await producer.dispatch(Ghost, {}, { attempts: 5 });
    await producer.dispatch(Greet, { name: "after the ghost" });
    await waitFor("the unknown job to fail", async () => (await consumer.failed()).length === 1);
    const [failed] = await consumer.failed();
    assert.equal(failed!.id, id);
    assert.equal(failed!.attemptsMade, 1);
    assert.match(failed!.error, /no job named "ghost"\. Known jobs: greet/);
    await waitFor("the next job to run", async () => (await consumer.depth())["default"]!.completed === 1);
  } finally {
    await worker.stop();
    await producer.close();
    await dropPrefix(serverUrls.redis, own);
  }
});

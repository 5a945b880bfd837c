// A worker that does not know a job (an older version of the app during a rolling deploy) leaves it
// for a worker that knows it, on the machine's Redis, and fails it with E_JOB_UNKNOWN only once it
// has waited unknownJobWait.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { requireServer, serverUrls } from "@fwkit/test-servers";
import { z } from "zod";
import { createJobQueue, defineJob, runWorker, type JobEventMap } from "../../src/index.js";
import { unknownJobDelay, UNKNOWN_JOB_MAX_STEP_MS } from "../../src/drivers/unknown-jobs.js";
import { Greet } from "../fixtures/jobs.js";
import { dropPrefix, uniquePrefix, waitFor } from "../helpers.js";

describe("jobs a worker does not know", () => {
  test("waits grow 1 s, 2 s, 4 s... up to 30 s and stop once unknownJobWait is spent", () => {
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7].map((n) => unknownJobDelay(n, 900_000)),
      [1000, 2000, 4000, 8000, 16_000, UNKNOWN_JOB_MAX_STEP_MS, UNKNOWN_JOB_MAX_STEP_MS],
    );
    // 1 + 2 + 4 = 7 s, then the last 3 s, then no more.
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((n) => unknownJobDelay(n, 10_000)),
      [1000, 2000, 4000, 3000, undefined],
    );
    assert.equal(unknownJobDelay(1, 0), undefined);
  });

  test("an unknown job is left for a worker that knows it, which runs it; the old worker fails nothing", async () => {
    await requireServer("redis");
    const prefix = uniquePrefix("unknown-left");
    const ran: unknown[] = [];
    const NewJob = defineJob({
      name: "new-in-this-version",
      schema: z.object({ n: z.number() }),
      handle(payload) {
        ran.push(payload);
      },
    });
    const older = await createJobQueue({ url: serverUrls.redis, prefix, jobs: [Greet], bind: false });
    const newer = await createJobQueue({ url: serverUrls.redis, prefix, jobs: [Greet, NewJob], bind: false });
    const deferred: Array<JobEventMap["deferred"]> = [];
    older.events.on("deferred", (event) => void deferred.push(event));
    const oldWorker = await runWorker(older, { signals: [], schedules: false });
    let newWorker: Awaited<ReturnType<typeof runWorker>> | undefined;
    try {
      const { id } = await newer.dispatch(NewJob, { n: 7 });
      // Bounds for a loaded machine, not expectations: the job is looked at again within seconds.
      await waitFor("the older worker to leave the job", () => deferred.length >= 1, 60_000);
      assert.deepEqual(
        { ...deferred[0], delayMs: undefined },
        { name: "new-in-this-version", queue: "default", id, deferrals: 1, delayMs: undefined },
      );
      assert.deepEqual(ran, []);
      newWorker = await runWorker(newer, { signals: [], schedules: false });
      // Then the older worker stops, as it does in a rolling deploy. While both run, each time the
      // job comes due either may take it, and the one that just left it wins that race more often.
      await oldWorker.stop();
      await waitFor("the newer worker to run it", () => ran.length === 1, 60_000);
      assert.deepEqual(ran, [{ n: 7 }]);
      await waitFor("the job to be completed", async () => (await newer.depth())["default"]!.completed === 1, 60_000);
      assert.deepEqual(await newer.failed(), []);
    } finally {
      await oldWorker.stop();
      await newWorker?.stop();
      await dropPrefix(serverUrls.redis, prefix);
    }
  });

  test("a job no worker knows fails with E_JOB_UNKNOWN once it has waited unknownJobWait, naming the known jobs", async () => {
    await requireServer("redis");
    const prefix = uniquePrefix("unknown-fails");
    const Ghost = defineJob({ name: "ghost", schema: z.object({}), handle() {} });
    const producer = await createJobQueue({ url: serverUrls.redis, prefix, jobs: [Ghost], bind: false });
    const consumer = await createJobQueue({
      url: serverUrls.redis,
      prefix,
      jobs: [Greet],
      bind: false,
      unknownJobWait: "1500ms",
    });
    const deferred: Array<JobEventMap["deferred"]> = [];
    consumer.events.on("deferred", (event) => void deferred.push(event));
    const worker = await runWorker(consumer, { signals: [], schedules: false });
    try {
      const { id } = await producer.dispatch(Ghost, {}, { attempts: 5 });
      await producer.dispatch(Greet, { name: "after the ghost" });
      await waitFor("the next job to run", async () => (await consumer.depth())["default"]!.completed === 1, 60_000);
      await waitFor("the unknown job to fail", async () => (await consumer.failed()).length === 1, 60_000);
      const [failed] = await consumer.failed();
      assert.equal(failed!.id, id);
      assert.equal(failed!.attemptsMade, 1, "the waits are not attempts");
      assert.match(failed!.error, /no job named "ghost"\. Known jobs: greet/);
      // 1 s, then the last 0.5 s, then the failure.
      assert.deepEqual(
        deferred.map((event) => event.delayMs),
        [1000, 500],
      );
    } finally {
      await worker.stop();
      await producer.close();
      await dropPrefix(serverUrls.redis, prefix);
    }
  });
});

// The cases every queue backend runs (the in-process queue and BullMQ on Redis): the same job
// classes, the same answers.
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import { z } from "zod";
import { defineJob, type JobQueue, runWorker, type RunningWorker } from "../src/index.js";
import { Add, Flaky, flaky, Greet, Hopeless, Nightly, ran, Slowpoke, stoppedBySignal } from "./fixtures/jobs.js";
import { waitFor } from "./helpers.js";

/** Runs the shared cases against the queues `make()` creates (each with its own prefix). */
export function queueSuite(
  label: string,
  make: () => Promise<JobQueue>,
  cleanup: () => Promise<void> = async () => {},
): void {
  describe(`${label}: the shared queue cases`, () => {
    let queue: JobQueue;
    let worker: RunningWorker;
    before(async () => {
      queue = await make();
      queue.register(Add, Greet, Flaky, Hopeless, Nightly, Slowpoke);
      worker = await runWorker(queue, { signals: [], grace: "2s" });
    });
    after(async () => {
      await worker.stop();
      await cleanup();
    });
    beforeEach(() => {
      ran.length = 0;
      flaky.failing = true;
    });

    test("a job runs once with its payload, as a class or defineJob", async () => {
      const first = await Add.dispatch({ a: 1, b: 2 });
      const second = await Greet.dispatch({ name: "Ada" });
      assert.equal(first.name, "Add");
      assert.equal(second.name, "greet");
      await waitFor("both jobs", () => ran.length === 2);
      assert.deepEqual(ran.map((r) => [r.name, r.payload]).sort(), [
        ["Add", { a: 1, b: 2 }],
        ["greet", { name: "Ada" }],
      ]);
    });

    test("a payload that fails the schema is refused at dispatch, naming the job and the issue; nothing is queued", async () => {
      const before = await queue.depth();
      await assert.rejects(Greet.dispatch({ name: "" }), (error: Error & { code?: string; status?: number }) => {
        assert.equal(error.code, "E_JOB_PAYLOAD_INVALID");
        assert.equal(error.status, 422);
        assert.match(error.message, /greet\.dispatch\(\).*name: Too small/);
        return true;
      });
      assert.deepEqual(await queue.depth(), before);
    });

    test("a failing job is retried with exponential backoff, then kept as failed with its error", async () => {
      const failures: boolean[] = [];
      const off = queue.events.on("failed", (event) => event.name === "Add" && failures.push(event.final));
      const { id } = await Add.dispatch({ a: 1, b: 1, failTimes: 9 }, { attempts: 3, backoff: 200 });
      await waitFor("the job to fail for good", async () => (await queue.failed()).some((job) => job.id === id));
      off();
      const attempts = ran.filter((r) => r.id === id);
      assert.deepEqual(
        attempts.map((r) => r.attempt),
        [1, 2, 3],
      );
      // Exponential from 200 ms: about 200 ms, then about 400 ms.
      assert.ok(attempts[1]!.at - attempts[0]!.at >= 190, `first wait ${attempts[1]!.at - attempts[0]!.at} ms`);
      assert.ok(attempts[2]!.at - attempts[1]!.at >= 390, `second wait ${attempts[2]!.at - attempts[1]!.at} ms`);
      assert.deepEqual(failures, [false, false, true]);
      const failed = (await queue.failed()).find((job) => job.id === id)!;
      assert.equal(failed.error, "attempt 3 fails");
      assert.equal(failed.attemptsMade, 3);
      assert.equal(failed.name, "Add");
      assert.equal(failed.ref, `default:${id}`);
      assert.deepEqual(failed.payload, { a: 1, b: 1, failTimes: 9 });
      await queue.clearFailed();
    });

    test("a job that gives up (failJob) is failed at once, without its remaining attempts", async () => {
      const { id } = await Hopeless.dispatch({ userId: 7 });
      await waitFor("the job to fail", async () => (await queue.failed()).some((job) => job.id === id));
      const failed = (await queue.failed()).find((job) => job.id === id)!;
      assert.equal(failed.error, "user 7 is gone");
      assert.equal(failed.attemptsMade, 1);
      assert.equal(ran.length, 1);
      await queue.clearFailed();
    });

    test("an attempt past the job's timeout fails with E_JOB_TIMEOUT and its signal aborts; then retried", async () => {
      stoppedBySignal.length = 0;
      const { id } = await Slowpoke.dispatch({});
      await waitFor("the job to fail", async () => (await queue.failed()).some((job) => job.id === id));
      const failed = (await queue.failed()).find((job) => job.id === id)!;
      assert.match(failed.error, /slowpoke ran longer than its timeout of 100 ms/);
      assert.equal(failed.attemptsMade, 2);
      assert.deepEqual(stoppedBySignal, [true, true]);
      await queue.clearFailed();
    });

    test("failed jobs are retried one by one or all at once, and cleared", async () => {
      const jobs = await Promise.all(["a", "b", "c"].map((key) => Flaky.dispatch({ key })));
      await waitFor("three failed jobs", async () => (await queue.failed()).length === 3);
      flaky.failing = false;
      await queue.retry(`default:${jobs[0]!.id}`);
      await waitFor("the retried job to run", () =>
        ran.some((r) => r.id === jobs[0]!.id && r.attempt === 1 && ran.indexOf(r) >= 4),
      );
      await waitFor("two failed jobs left", async () => (await queue.failed()).length === 2);
      const mark = ran.length;
      assert.equal(await queue.retryAll(), 2);
      // Retried jobs wait before they run: once each has run (its outcome decided), none is failed.
      await waitFor("the retried jobs to run", () =>
        [jobs[1]!.id, jobs[2]!.id].every((id) => ran.slice(mark).some((r) => r.id === id)),
      );
      await waitFor("no failed job left", async () => (await queue.failed()).length === 0);
      await assert.rejects(queue.retry("default:no-such-job"), { code: "E_JOB_NOT_FOUND" });
      flaky.failing = true;
      await Flaky.dispatch({ key: "d" });
      await waitFor("one failed job", async () => (await queue.failed()).length === 1);
      assert.equal(await queue.clearFailed(), 1);
      assert.deepEqual(await queue.failed(), []);
    });

    test("a jobId de-duplicates: the second dispatch queues nothing and answers the same id", async () => {
      const jobId = `welcome-${Date.now()}`;
      const first = await Greet.dispatch({ name: "Bob" }, { jobId, delay: 300 });
      const second = await Greet.dispatch({ name: "Bob again" }, { jobId });
      assert.equal(first.id, jobId);
      assert.equal(second.id, jobId);
      await waitFor("the job", () => ran.length === 1);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(
        ran.map((r) => r.payload),
        [{ name: "Bob" }],
      );
    });

    test("waiting jobs run without a priority first, then by priority (1 first), then in order", async () => {
      const Ordered = defineJob({
        name: "ordered",
        queue: "ordered",
        schema: z.object({ n: z.number() }),
        handle(payload, context) {
          ran.push({ name: context.name, id: context.id, payload, attempt: context.attempt, at: Date.now() });
        },
      });
      queue.register(Ordered);
      await Ordered.dispatch({ n: 1 }, { priority: 5 });
      await Ordered.dispatch({ n: 2 });
      await Ordered.dispatch({ n: 3 }, { priority: 1 });
      await Ordered.dispatch({ n: 4 });
      const ordered = await queue.work({ queues: ["ordered"], concurrency: 1 });
      await waitFor("the four jobs", () => ran.length === 4);
      await ordered.close(1000);
      assert.deepEqual(
        ran.map((r) => (r.payload as { n: number }).n),
        [2, 4, 3, 1],
      );
    });

    test("a delayed job runs no sooner than its delay", async () => {
      const started = Date.now();
      await Greet.dispatch({ name: "later" }, { delay: "400ms" });
      await waitFor("the delayed job", () => ran.length === 1);
      assert.ok(ran[0]!.at - started >= 390, `ran after ${ran[0]!.at - started} ms`);
    });

    test("listSchedules gives each schedule with its next run", async () => {
      const runs = await queue.listSchedules();
      const nightly = runs.find((run) => run.job === "nightly");
      assert.ok(nightly, JSON.stringify(runs));
      assert.equal(nightly.cron, "0 3 * * *");
      assert.equal(nightly.tz, "Europe/Paris");
      assert.ok(
        nightly.next &&
          nightly.next.getTime() > Date.now() &&
          nightly.next.getTime() <= Date.now() + 86_400_000 + 3_600_000,
      );
      const hour = new Intl.DateTimeFormat("en-GB", {
        timeZone: "Europe/Paris",
        hour: "2-digit",
        minute: "2-digit",
      }).format(nightly.next);
      assert.equal(hour, "03:00");
    });

    test("events report completions with durations, and depth counts the queue", async () => {
      const completed: number[] = [];
      const off = queue.events.on("completed", (event) => completed.push(event.durationMs));
      await Greet.dispatch({ name: "timed" });
      await waitFor("the completion event", () => completed.length === 1);
      off();
      assert.ok(completed[0]! >= 0);
      const depth = await queue.depth();
      assert.deepEqual(Object.keys(depth["default"]!).sort(), ["active", "completed", "delayed", "failed", "waiting"]);
      assert.ok(depth["default"]!.completed >= 1);
    });
  });
}

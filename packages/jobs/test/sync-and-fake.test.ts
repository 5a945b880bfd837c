// sync: runs each job in dispatch's await, and the test fake records and runs the same job classes
// the queues run, with no Redis.
import assert from "node:assert/strict";
import { beforeEach, describe, test } from "node:test";
import { z } from "zod";
import { createJobQueue, defineJob, useDispatcher } from "../src/index.js";
import { createFakeQueue } from "../src/testing.js";
import { Add, Flaky, flaky, Greet, ran } from "./fixtures/jobs.js";

beforeEach(() => {
  ran.length = 0;
  flaky.failing = true;
});

describe("sync:", () => {
  test("a job runs inside dispatch, every attempt at once; the last error reaches the dispatcher and the job is kept as failed", async () => {
    const queue = await createJobQueue({ url: "sync:", jobs: [Add, Flaky] });
    try {
      await Add.dispatch({ a: 2, b: 3, failTimes: 1 }, { delay: "1h" });
      assert.deepEqual(
        ran.map((r) => r.attempt),
        [1, 2],
      );
      await assert.rejects(Flaky.dispatch({ key: "x" }), /the server is down/);
      assert.deepEqual(
        ran.filter((r) => r.name === "flaky").map((r) => r.attempt),
        [1, 2],
      );
      const [failed] = await queue.failed();
      assert.equal(failed!.name, "flaky");
      flaky.failing = false;
      await queue.retry(failed!.ref);
      assert.deepEqual(await queue.failed(), []);
      assert.equal((await queue.depth())["default"]!.completed, 2);
    } finally {
      await queue.close();
    }
  });

  test("payloads travel as JSON on every backend: a z.date() field is refused at dispatch, z.coerce.date() arrives as a Date; a bigint is refused", async () => {
    const seen: unknown[] = [];
    const Stamp = defineJob({
      name: "stamp",
      schema: z.object({ at: z.coerce.date(), note: z.string().optional() }),
      handle(payload) {
        seen.push(payload);
      },
    });
    // The queue keeps JSON and the worker checks it again: a date written as JSON is a string.
    const StrictStamp = defineJob({ name: "strict-stamp", schema: z.object({ at: z.date() }), handle() {} });
    const Big = defineJob({ name: "big", schema: z.object({ n: z.bigint() }), handle() {} });
    const queue = await createJobQueue({ url: "sync:", jobs: [Stamp, StrictStamp, Big] });
    try {
      await Stamp.dispatch({ at: new Date("2026-01-02T03:04:05Z"), note: undefined });
      assert.deepEqual(seen, [{ at: new Date("2026-01-02T03:04:05Z") }]);
      await assert.rejects(StrictStamp.dispatch({ at: new Date() }), {
        code: "E_JOB_PAYLOAD_INVALID",
        message: /strict-stamp\.dispatch\(\).*once written as JSON.*z\.coerce\.date\(\)/,
      });
      await assert.rejects(Big.dispatch({ n: 1n }), {
        code: "E_JOB_PAYLOAD_INVALID",
        message: /big\.dispatch\(\).*cannot be written as JSON/,
      });
    } finally {
      await queue.close();
    }
  });

  test("a payload that fails its schema is refused before anything runs", async () => {
    const queue = await createJobQueue({ url: "sync:" });
    try {
      await assert.rejects(Greet.dispatch({ name: 42 } as never), { code: "E_JOB_PAYLOAD_INVALID", status: 422 });
      assert.deepEqual(ran, []);
    } finally {
      await queue.close();
    }
  });
});

describe("createFakeQueue", () => {
  test("records dispatches of the same job classes, checked, and runs them (and what they dispatch) on runAll", async () => {
    const Chain = defineJob({
      name: "chain",
      schema: z.object({ to: z.string() }),
      async handle({ to }) {
        await Greet.dispatch({ name: to });
      },
    });
    const jobs = createFakeQueue();
    try {
      await Add.dispatch({ a: 1, b: 2 }, { delay: "5m" });
      await Chain.dispatch({ to: "Ada" });
      await Greet.dispatch({ name: "Bob" }, { jobId: "bob" });
      await Greet.dispatch({ name: "Bob twice" }, { jobId: "bob" });
      await assert.rejects(Greet.dispatch({ name: "" }), { code: "E_JOB_PAYLOAD_INVALID" });
      await assert.rejects(Greet.dispatch({ name: "x" }, { dealy: 5 } as never), { code: "E_UNKNOWN_OPTION" });
      assert.equal(jobs.dispatched(Add).length, 1);
      assert.deepEqual(jobs.dispatched(Add)[0]!.payload, { a: 1, b: 2 });
      assert.deepEqual(jobs.dispatched(Add)[0]!.options, { delay: "5m" });
      assert.deepEqual(
        jobs.dispatched(Greet).map((d) => d.payload),
        [{ name: "Bob" }],
      );
      assert.equal(ran.length, 0);
      assert.equal(await jobs.runAll(), 4);
      assert.deepEqual(
        ran.map((r) => [r.name, r.payload]),
        [
          ["Add", { a: 1, b: 2 }],
          ["greet", { name: "Bob" }],
          ["greet", { name: "Ada" }],
        ],
      );
      assert.equal(await jobs.runAll(), 0);
      assert.ok(jobs.dispatched().every((d) => d.ran));
      jobs.clear();
      assert.deepEqual(jobs.dispatched(), []);
    } finally {
      jobs.restore();
    }
  });

  test("runAll throws the job's error; restore() puts the previous dispatcher back", async () => {
    const jobs = createFakeQueue();
    await Flaky.dispatch({ key: "k" });
    await assert.rejects(jobs.runAll(), /the server is down/);
    jobs.restore();
    const restore = useDispatcher(undefined);
    try {
      await assert.rejects(Greet.dispatch({ name: "x" }), { code: "E_JOB_NO_QUEUE", message: /greet\.dispatch\(\)/ });
    } finally {
      restore();
    }
  });
});

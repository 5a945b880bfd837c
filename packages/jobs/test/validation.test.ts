// Start-up checks: QUEUE_URL, the queue's and worker's options, job definitions, schedules and
// dispatch options are each refused with a coded error naming what is wrong (and the known names).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { z } from "zod";
import { createJobQueue, defineJob, Job, parseQueueUrl, runWorker, schedule } from "../src/index.js";
import { importDriver } from "../src/drivers/load.js";
import { Add, Greet } from "./fixtures/jobs.js";

const coded = (code: string, message?: RegExp) => (error: Error & { code?: string }) => {
  assert.equal(error.code, code, error.message);
  if (message) assert.match(error.message, message);
  return true;
};

describe("QUEUE_URL", () => {
  test("redis://, rediss://, memory: and sync: are read", () => {
    assert.deepEqual(parseQueueUrl("redis://:s%40cret@cache.internal:6380/2?prefix=shop"), {
      kind: "bullmq",
      redis: { host: "cache.internal", port: 6380, username: undefined, password: "s@cret", db: 2, tls: false },
      prefix: "shop",
    });
    assert.equal((parseQueueUrl("rediss://u:p@h") as { redis: { tls: boolean } }).redis.tls, true);
    assert.deepEqual(parseQueueUrl("memory:"), { kind: "memory" });
    assert.deepEqual(parseQueueUrl("sync:"), { kind: "sync" });
  });

  test("anything else is E_QUEUE_URL_INVALID naming the URL and what is wrong", async () => {
    assert.throws(() => parseQueueUrl("amqp://broker"), coded("E_QUEUE_URL_INVALID", /amqp:.*not one the queue knows/));
    assert.throws(() => parseQueueUrl("redis://h/x"), coded("E_QUEUE_URL_INVALID", /database number/));
    assert.throws(
      () => parseQueueUrl("redis://h?prefx=a"),
      coded("E_QUEUE_URL_INVALID", /"prefx".*known ones are: prefix/),
    );
    assert.throws(() => parseQueueUrl(""), coded("E_QUEUE_URL_INVALID"));
    await assert.rejects(createJobQueue({ url: "memroy:" }), coded("E_QUEUE_URL_INVALID", /memroy/));
  });
});

describe("options", () => {
  test("an unknown queue option names the known ones; a bad value says what it must be", async () => {
    await assert.rejects(
      createJobQueue({ url: "memory:", stalledIntervall: "1s" } as never),
      coded("E_UNKNOWN_OPTION", /stalledIntervall.*Did you mean "stalledInterval".*dispatchTimeout/),
    );
    await assert.rejects(
      createJobQueue({ url: "memory:", dispatchTimeout: "soon" }),
      coded("E_JOB_OPTION_INVALID", /dispatchTimeout must be/),
    );
    await assert.rejects(
      createJobQueue({ url: "memory:", maxStalledCount: -1 }),
      coded("E_JOB_OPTION_INVALID", /maxStalledCount/),
    );
  });

  test("dispatch options: unknown names and bad values are refused before anything is queued", async () => {
    const queue = await createJobQueue({ url: "memory:", jobs: [Greet], bind: false });
    try {
      await assert.rejects(
        queue.dispatch(Greet, { name: "a" }, { retries: 3 } as never),
        coded("E_UNKNOWN_OPTION", /attempts/),
      );
      await assert.rejects(
        queue.dispatch(Greet, { name: "a" }, { attempts: 0 }),
        coded("E_JOB_OPTION_INVALID", /greet\.dispatch\(\).*attempts/),
      );
      await assert.rejects(
        queue.dispatch(Greet, { name: "a" }, { jobId: "a:b" }),
        coded("E_JOB_OPTION_INVALID", /jobId/),
      );
      await assert.rejects(
        queue.dispatch(Greet, { name: "a" }, { backoff: { type: "linear", delay: 1 } as never }),
        coded("E_JOB_OPTION_INVALID", /backoff\.type/),
      );
      await assert.rejects(
        queue.dispatch(Greet, { name: "a" }, { priority: 0 }),
        coded("E_JOB_OPTION_INVALID", /priority/),
      );
      await assert.rejects(
        queue.dispatch(Greet, { name: "a" }, { delay: "tomorrow" }),
        coded("E_JOB_OPTION_INVALID", /delay/),
      );
      await assert.rejects(queue.dispatchByName("greeet", {}), coded("E_JOB_UNKNOWN", /"greeet".*Known jobs: greet/));
      assert.equal((await queue.depth())["default"]!.waiting, 0);
    } finally {
      await queue.close();
    }
  });

  test("runWorker: an unknown option or queue is refused, naming the known ones", async () => {
    const queue = await createJobQueue({ url: "memory:", jobs: [Greet], bind: false });
    try {
      await assert.rejects(runWorker(queue, { concurency: 2 } as never), coded("E_UNKNOWN_OPTION", /concurrency/));
      await assert.rejects(
        runWorker(queue, { queues: ["mails"] }),
        coded("E_JOB_UNKNOWN", /queue mails.*queue default/),
      );
      await assert.rejects(runWorker(queue, { grace: "long" }), coded("E_JOB_OPTION_INVALID", /grace/));
    } finally {
      await queue.close();
    }
  });
});

describe("job definitions and schedules", () => {
  test("a cron expression that does not parse is E_JOB_SCHEDULE_INVALID at start-up, naming the job", async () => {
    const Bad = defineJob({ name: "report", schema: z.object({}), schedule: { cron: "0 25 * * *" }, handle() {} });
    await assert.rejects(
      createJobQueue({ url: "memory:", jobs: [Bad] }),
      coded("E_JOB_SCHEDULE_INVALID", /job report.*0 25 \* \* \*/),
    );
    const BadZone = defineJob({
      name: "zoned",
      schema: z.object({}),
      schedule: { cron: "0 3 * * *", tz: "Mars/Olympus" },
      handle() {},
    });
    await assert.rejects(
      createJobQueue({ url: "memory:", jobs: [BadZone] }),
      coded("E_JOB_SCHEDULE_INVALID", /Mars\/Olympus/),
    );
    const TooOften = defineJob({ name: "often", schema: z.object({}), schedule: { every: "10ms" }, handle() {} });
    await assert.rejects(
      createJobQueue({ url: "memory:", jobs: [TooOften] }),
      coded("E_JOB_SCHEDULE_INVALID", /at least 1s/),
    );
  });

  test("@schedule sets a cron schedule and keeps the class's other settings", async () => {
    @schedule("*/5 * * * *", { tz: "UTC" })
    class Sweep extends Job {
      static override options = { queue: "maintenance", attempts: 2 };
      handle(): void {}
    }
    assert.deepEqual(Sweep.options, {
      queue: "maintenance",
      attempts: 2,
      schedule: { cron: "*/5 * * * *", tz: "UTC" },
    });
    const queue = await createJobQueue({ url: "memory:", jobs: [Sweep], bind: false });
    try {
      await queue.syncSchedules();
      const [run] = await queue.listSchedules();
      assert.equal(run!.job, "Sweep");
      assert.equal(run!.queue, "maintenance");
      assert.equal(run!.next!.getUTCMinutes() % 5, 0);
    } finally {
      await queue.close();
    }
  });

  test("two jobs with one name, a class without handle, an unknown setting: each refused naming the job", async () => {
    const Again = defineJob({ name: "greet", schema: z.object({}), handle() {} });
    await assert.rejects(
      createJobQueue({ url: "memory:", jobs: [Greet, Again] }),
      coded("E_JOB_NAME_TAKEN", /"greet"/),
    );
    class NoHandle {}
    await assert.rejects(
      createJobQueue({ url: "memory:", jobs: [NoHandle as never] }),
      coded("E_JOB_DEFINITION_INVALID", /NoHandle/),
    );
    class Typo extends Job {
      static override options = { attempt: 3 } as never;
      handle(): void {}
    }
    await assert.rejects(
      createJobQueue({ url: "memory:", jobs: [Typo] }),
      coded("E_UNKNOWN_OPTION", /Typo.*attempt.*attempts/),
    );
    await assert.rejects(
      createJobQueue({ url: "memory:", jobs: [Add] }).then(async (queue) => {
        await queue.close();
        return queue.dispatch(Add, { a: 1, b: 1 });
      }),
      coded("E_QUEUE_CLOSED"),
    );
  });

  test("a driver package that is missing names its install", async () => {
    await assert.rejects(
      importDriver("bullmq-not-installed", "job queue (QUEUE_URL=redis://...)"),
      coded("E_JOBS_DRIVER_MISSING", /"bullmq-not-installed".*npm install bullmq-not-installed/),
    );
  });
});

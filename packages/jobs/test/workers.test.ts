// Worker processes on the machine's Redis: schedules across two workers run once per tick, a
// worker SIGKILLed mid-job has its job finished by another after the stalled check, and SIGTERM
// lets the running job finish within the grace, then exits 0.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { requireServer, serverUrls } from "@fwkit/test-servers";
import { Redis } from "ioredis";
import { createJobQueue, type JobQueue } from "../src/index.js";
import { Record, Slow, Tick } from "./fixtures/cluster-jobs.js";
import { dropPrefix, sleep, startWorker, uniquePrefix, waitFor, type WorkerProcess } from "./helpers.js";

interface Run {
  id: string;
  what: string;
  pid: number;
  attempt: number;
  at: number;
}

describe("worker processes on Redis", () => {
  const redis = new Redis(serverUrls.redis);
  const prefixes: string[] = [];
  const workers: WorkerProcess[] = [];
  const queues: JobQueue[] = [];

  async function setUp(label: string, jobs: string, workerCount: number, env: Record<string, string> = {}) {
    await requireServer("redis");
    const prefix = uniquePrefix(label);
    prefixes.push(prefix);
    const started = await Promise.all(
      Array.from({ length: workerCount }, () =>
        startWorker({ QUEUE_URL: serverUrls.redis, PREFIX: prefix, JOBS: jobs, ...env }),
      ),
    );
    workers.push(...started);
    const queue = await createJobQueue({
      url: serverUrls.redis,
      prefix,
      jobs: [Record, Slow, Tick].filter((job) => jobs.split(",").includes(job.jobName!)),
      bind: false,
    });
    queues.push(queue);
    const runs = async (): Promise<Run[]> =>
      (await redis.lrange(`${prefix}:runs`, 0, -1)).map((text) => JSON.parse(text) as Run);
    return { prefix, workers: started, queue, runs };
  }

  after(async () => {
    for (const worker of workers)
      if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill("SIGKILL");
    for (const queue of queues) await queue.close();
    for (const prefix of prefixes) await dropPrefix(serverUrls.redis, prefix);
    redis.disconnect();
  });

  test("1,000 jobs on two worker processes: each runs exactly once", async () => {
    const { runs, queue, workers: pair } = await setUp("thousand", "record", 2, { CONCURRENCY: "10" });
    const started = Date.now();
    for (let batch = 0; batch < 20; batch++) {
      await Promise.all(Array.from({ length: 50 }, (_, i) => queue.dispatch(Record, { n: batch * 50 + i })));
    }
    await waitFor("1,000 runs", async () => (await redis.llen(`${prefixes.at(-1)}:runs`)) >= 1000, 300_000);
    const seconds = (Date.now() - started) / 1000;
    await sleep(500);
    const all = await runs();
    const numbers = all.map((run) => Number(run.what.split(" ")[1]));
    assert.equal(all.length, 1000);
    assert.equal(new Set(numbers).size, 1000);
    const pids = new Set(all.map((run) => run.pid));
    assert.deepEqual([...pids].sort(), pair.map((worker) => worker.child.pid).sort(), "both workers took jobs");
    console.log(
      `1,000 jobs on 2 workers: ${(1000 / seconds).toFixed(0)} jobs/s (dispatch and run, ${seconds.toFixed(1)} s)`,
    );
  });

  test("a schedule every second on two worker processes runs once per tick", async () => {
    const since = Date.now();
    const { runs, queue } = await setUp("tick", "tick", 2);
    const schedules = await queue.listSchedules();
    assert.deepEqual(
      schedules.map((s) => [s.job, s.every]),
      [["tick", 1000]],
    );
    // Waits for four ticks however long a busy machine takes (no count of ticks per second of
    // the clock is asserted): what is checked is that none ran twice and none ran off the schedule.
    const tickRuns = async () => (await runs()).filter((run) => run.what === "tick");
    await waitFor("four ticks of the schedule", async () => (await tickRuns()).length >= 4);
    const ticks = await tickRuns();
    const until = Date.now();
    const ids = ticks.map((run) => run.id);
    assert.equal(new Set(ids).size, ids.length, `a tick ran twice: ${ids.join(", ")}`);
    // Each tick's job is named by its time (repeat:<scheduler>:<ms>): ticks a second apart, none
    // twice, all between the schedule's creation and now (so not one per worker).
    const times = ids.map((id) => Number(id.split(":").at(-1))).sort((a, b) => a - b);
    assert.ok(
      times.every((time) => Number.isInteger(time) && time >= since - 1000 && time <= until),
      ids.join(", "),
    );
    for (let i = 1; i < times.length; i++) assert.ok(times[i]! - times[i - 1]! >= 1000, ids.join(", "));
  });

  test("a worker SIGKILLed mid-job: another worker finishes the job after the stalled check, once", async () => {
    const {
      runs,
      queue,
      workers: [first, second],
    } = await setUp("kill", "slow", 2);
    // Long enough that the kill below lands mid-job however slowly a busy machine polls and signals.
    const { id } = await queue.dispatch(Slow, { ms: 5000 });
    await waitFor("the job to start", async () => (await runs()).some((run) => run.what === "start"));
    const starter = (await runs()).find((run) => run.what === "start")!.pid;
    const victim = [first!, second!].find((worker) => worker.child.pid === starter)!;
    victim.child.kill("SIGKILL");
    assert.equal(await victim.exited, "SIGKILL");
    // lockDuration 2 s + stalledInterval 1 s in the fixture: picked up again within a few seconds.
    await waitFor("the job to end on the other worker", async () => (await runs()).some((run) => run.what === "end"));
    const all = (await runs()).filter((run) => run.id === id);
    const ends = all.filter((run) => run.what === "end");
    assert.equal(ends.length, 1, JSON.stringify(all));
    assert.notEqual(ends[0]!.pid, starter);
    // The run after the stall is the job's second attempt, though the first never failed.
    assert.deepEqual(
      all.map((run) => [run.what, run.attempt]),
      [
        ["start", 1],
        ["start", 2],
        ["end", 2],
      ],
    );
    const survivor = [first!, second!].find((worker) => worker !== victim)!;
    assert.match(survivor.output(), new RegExp(`stalled default:${id}\n`), "the stalled event fired on the survivor");
    assert.deepEqual(await queue.failed(), []);
    await sleep(1000);
    assert.equal((await runs()).filter((run) => run.what === "end").length, 1);
  });

  test("SIGTERM mid-job: the worker stops taking jobs, finishes the running one within the grace, exits 0", async () => {
    const {
      runs,
      queue,
      workers: [worker],
    } = await setUp("term", "slow,record", 1, { GRACE: "10s" });
    const { id } = await queue.dispatch(Slow, { ms: 2000 });
    await waitFor("the job to start", async () => (await runs()).some((run) => run.what === "start"));
    worker!.child.kill("SIGTERM");
    await waitFor("the worker to take the signal", () => worker!.output().includes("worker got SIGTERM"));
    // Dispatched after the signal: left for another worker.
    await queue.dispatch(Record, { n: 1 });
    // Within the grace: the worker says it was not forced (below) and the job ended.
    assert.equal(await worker!.exited, 0);
    const all = await runs();
    assert.deepEqual(
      all.filter((run) => run.id === id).map((run) => run.what),
      ["start", "end"],
    );
    assert.ok(!all.some((run) => run.what === "record 1"), "the stopping worker took a new job");
    assert.match(worker!.output(), /worker stopped \{"forced":false,"signal":"SIGTERM"\}/);
    assert.equal((await queue.depth())["default"]!.waiting, 1);
  });

  test("SIGTERM with a job longer than the grace: exit 0 at the grace, and the job runs again on another worker", async () => {
    const {
      runs,
      queue,
      workers: [worker],
      prefix,
    } = await setUp("grace", "slow", 1, { GRACE: "500ms" });
    const { id } = await queue.dispatch(Slow, { ms: 6000 });
    await waitFor("the job to start", async () => (await runs()).some((run) => run.what === "start"));
    worker!.child.kill("SIGTERM");
    assert.equal(await worker!.exited, 0);
    // The grace (0.5 s) cut the job (6 s) short: the worker says it forced the stop, and the job
    // never ended there.
    assert.match(worker!.output(), /"forced":true/);
    assert.ok(!(await runs()).some((run) => run.what === "end"), "the job ended before the worker stopped");
    const other = await startWorker({ QUEUE_URL: serverUrls.redis, PREFIX: prefix, JOBS: "slow" });
    workers.push(other);
    await waitFor("the job to end on the other worker", async () => (await runs()).some((run) => run.what === "end"));
    const ends = (await runs()).filter((run) => run.id === id && run.what === "end");
    assert.equal(ends.length, 1);
    assert.equal(ends[0]!.pid, other.child.pid);
    other.child.kill("SIGTERM");
    assert.equal(await other.exited, 0);
  });
});

// Redis stopped for about 10 s while jobs are dispatched: each dispatch fails fast with a 503-class
// coded error (never hangs), and once Redis is back (appendonly, as the generated compose runs it)
// every job accepted before the outage runs. The test starts its own redis-server and stops only it.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { freePort } from "@fwkit/test-servers";
import { z } from "zod";
import { createJobQueue, defineJob, runWorker } from "../src/index.js";
import { sleep, waitFor } from "./helpers.js";

/** How the queue refuses a dispatch it cannot make: after its own dispatch timeout, or at once on a connection it knows is down. */
const BOUNDED_REFUSAL =
  /Redis did not answer within \d+ ms|the connection to Redis is down|max retries per request limit \(which is 0\)|ECONNREFUSED|Connection is closed/;

/** A redis-server of this test's own, with the append-only file on, in a temporary folder. */
async function ownRedis() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "jobs-redis-"));
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--appendonly", "yes", "--save", ""],
      { stdio: "ignore" },
    );
    child.once("error", (error) =>
      assert.fail(`redis-server could not be started (${error.message}); install it: apt-get install -y redis-server`),
    );
    await waitFor(`redis-server on port ${port}`, async () => {
      const { Redis } = await import("ioredis");
      const probe = new Redis({
        port,
        host: "127.0.0.1",
        lazyConnect: true,
        retryStrategy: () => null,
        maxRetriesPerRequest: 0,
      });
      probe.on("error", () => {});
      try {
        await probe.connect();
        return (await probe.ping()) === "PONG";
      } catch {
        return false;
      } finally {
        probe.disconnect();
      }
    });
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGTERM");
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}/0`,
    start,
    stop,
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const done = new Set<number>();
const Count = defineJob({
  name: "count",
  schema: z.object({ n: z.number() }),
  handle({ n }) {
    done.add(n);
  },
});

let redis: Awaited<ReturnType<typeof ownRedis>> | undefined;
after(async () => {
  await redis?.close();
});

test("Redis down for 10 s with a worker running: dispatch answers E_QUEUE_UNAVAILABLE (503) fast; no job accepted before is lost", async () => {
  redis = await ownRedis();
  const queue = await createJobQueue({ url: redis.url, jobs: [Count], dispatchTimeout: "1s", bind: false });
  // A worker runs through the outage too: it must ride it out and take jobs again after.
  const worker = await runWorker(queue, { signals: [], concurrency: 10, schedules: false });
  const accepted: number[] = [];
  // Due only after Redis is back: they are in Redis, waiting, when it stops, and must survive it.
  for (let i = 1; i <= 50; i++) {
    await queue.dispatch(Count, { n: -i }, { delay: "14s" });
    accepted.push(-i);
  }
  const refused: Array<{ n: number; code: string; status: number; message: string }> = [];
  let n = 0;
  let outage: Promise<void> | undefined;
  const started = Date.now();
  while (Date.now() - started < 17_000) {
    n += 1;
    if (!outage && Date.now() - started > 3000) {
      // Redis goes away for about 10 s, with dispatches going on.
      outage = redis.stop().then(async () => {
        await sleep(10_000);
        await redis!.start();
      });
    }
    try {
      await queue.dispatch(Count, { n });
      accepted.push(n);
    } catch (error) {
      const coded = error as { code: string; status: number; message: string };
      refused.push({ n, code: coded.code, status: coded.status, message: coded.message });
    }
    await sleep(50);
  }
  await outage;
  await queue.ping();
  assert.ok(refused.length > 20, `${refused.length} dispatches refused`);
  for (const refusal of refused) {
    assert.equal(refusal.code, "E_QUEUE_UNAVAILABLE");
    assert.equal(refusal.status, 503);
    // Cut off by the queue itself, never left to hang: its dispatch timeout, or a connection it
    // knows is down (no duration is asserted: a busy machine stretches any wall-clock figure).
    assert.match(refusal.message, BOUNDED_REFUSAL);
  }
  assert.ok(
    accepted.some((id) => id > refused.at(-1)!.n),
    "dispatch works again after Redis is back",
  );
  await waitFor("every accepted job to run", () => accepted.every((id) => done.has(id)), 120_000);
  assert.ok(!refused.some((refusal) => done.has(refusal.n)), "a refused dispatch was queued");
  await worker.stop();
  console.log(
    `outage: ${accepted.length} accepted (all ran, 50 of them waiting in Redis through the outage), ${refused.length} refused`,
  );
});

test("Redis not up at all: dispatch is E_QUEUE_UNAVAILABLE within the dispatch timeout, and close() does not hang", async () => {
  const port = await freePort();
  const queue = await createJobQueue({
    url: `redis://127.0.0.1:${port}`,
    jobs: [Count],
    dispatchTimeout: "500ms",
    bind: false,
  });
  await assert.rejects(queue.dispatch(Count, { n: 1 }), {
    code: "E_QUEUE_UNAVAILABLE",
    status: 503,
    message: BOUNDED_REFUSAL,
  });
  await assert.rejects(queue.failed(), { code: "E_QUEUE_UNAVAILABLE" });
  await assert.rejects(queue.ping(), { code: "E_QUEUE_UNAVAILABLE", status: 503 });
  // A worker started meanwhile starts, and stops at once with nothing to give up.
  const worker = await queue.work();
  assert.deepEqual(await worker.close(1000), { forced: false });
  await queue.close();
});

// Jobs across nodes, on real processes: a scaffolded fw-b app as two `start` nodes that dispatch
// and two `:work` processes that run the jobs, on one Redis (QUEUE_URL) with PostgreSQL counting
// each run. Every job runs once; a worker killed mid-jobs loses none (its running jobs run again
// after the stalled check); a mail job retries while SMTP is down and is delivered when it is back;
// a schedule every 3 s runs once per tick though two workers upsert it; with Redis stopped 10 s a
// dispatch answers 503 at once and no accepted job is lost. JOBS_COUNT sets how many
// jobs the first case dispatches (300 here; 1,000 in `pnpm test:cluster`).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { csrfFrom, httpClient, startSmtp, type SmtpServer } from "@fwkit/test-servers";
import { FW_B, productionEnv, runCommand, scaffoldApp } from "../src/apps.js";
import { startNodes, startNode, type AppNode } from "../src/cluster.js";
import { addJobs, runsOf, sql, startWorker } from "../src/jobs.js";
import { eventually, freePort, type Proc } from "../src/processes.js";
import { createDatabase, startPrivateRedis, type Database, type PrivateRedis } from "../src/stores.js";

const COUNT = Number(process.env["JOBS_COUNT"] ?? 300);
const CONCURRENCY = 10;
const VIA_TLS = { "x-forwarded-proto": "https", connection: "close" };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("jobs on two nodes and two workers sharing one Redis", () => {
  const dir = mkdtempSync(join(tmpdir(), "scale-out-jobs-"));
  let redis: PrivateRedis;
  let db: Database;
  let root: string;
  let env: Record<string, string>;
  let smtpPort: number;
  let smtp: SmtpServer | undefined;
  const nodes: AppNode[] = [];
  const workers: Proc[] = [];

  /** Dispatches `count` jobs keyed `prefix-i` through `node`, in requests of at most 50. */
  async function dispatch(node: AppNode, prefix: string, count: number, ms = 0): Promise<void> {
    const requests: Promise<void>[] = [];
    for (let start = 0; start < count; start += 50) {
      const size = Math.min(50, count - start);
      requests.push(
        fetch(`${node.url}/dispatch/${prefix}${start}x/${size}/${ms}`, { headers: { connection: "close" } }).then(
          async (res) => {
            assert.equal(res.status, 200, await res.text());
          },
        ),
      );
    }
    await Promise.all(requests);
  }

  before(async () => {
    redis = await startPrivateRedis(dir);
    db = await createDatabase(`scaleout_jobs_${process.pid}`);
    // Nothing listens on the mail port until the mail case brings SMTP up.
    smtpPort = await freePort();
    env = {
      ...productionEnv(
        { dbUrl: db.url, redisUrl: redis.url, mailUrl: `smtp://127.0.0.1:${smtpPort}` },
        `j${process.pid}`,
      ),
      QUEUE_URL: `${redis.url}/3`,
    };
    root = scaffoldApp(FW_B, dir);
    addJobs(root);
    runCommand(FW_B, root, [FW_B.commands.build]);
    runCommand(FW_B, root, [FW_B.commands.migrate], env);
    nodes.push(...(await startNodes([startNode(FW_B, root, "j1", env, 1), startNode(FW_B, root, "j2", env, 1)])));
    workers.push(await startWorker(root, env, "w1", CONCURRENCY), await startWorker(root, env, "w2", CONCURRENCY));
  });

  after(async () => {
    await Promise.all([...workers, ...nodes.map((node) => node.proc)].map((proc) => proc.stop("SIGKILL")));
    await smtp?.close();
    await redis?.stop();
    db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test(`${COUNT} jobs dispatched from both nodes each run exactly once`, async () => {
    const started = Date.now();
    await Promise.all([dispatch(nodes[0]!, "run-a", COUNT / 2), dispatch(nodes[1]!, "run-b", COUNT - COUNT / 2)]);
    const dispatched = Date.now();
    await eventually(
      `${COUNT} job runs`,
      async () => (runsOf(db.url, "run-").keys >= COUNT ? true : undefined),
      180_000,
    );
    const done = Date.now();
    await sleep(1000);
    const runs = runsOf(db.url, "run-");
    assert.deepEqual(runs, { rows: COUNT, keys: COUNT, duplicates: [] });
    const byWorker = sql(db.url, "select pid, count(*) from job_runs where key like 'run-%' group by pid order by pid");
    console.log(
      `jobs: ${COUNT} dispatched from 2 nodes in ${dispatched - started} ms, run exactly once by 2 workers (concurrency ${CONCURRENCY}) in ${done - started} ms: ${Math.round((COUNT * 1000) / (done - started))} jobs/s; runs per worker process ${byWorker.map(([, n]) => n).join(" + ")}`,
    );
    assert.equal(byWorker.length, 2, "both workers took jobs");
  });

  test("a worker SIGKILLed in the middle of jobs: every job still runs (0 lost), duplicates only among those it was running", async () => {
    const total = 60;
    await dispatch(nodes[0]!, "kill", total, 400);
    await eventually("the first runs", async () => (runsOf(db.url, "kill").rows >= 6 ? true : undefined), 60_000);
    workers[0]!.child.kill("SIGKILL");
    await workers[0]!.exited;
    await eventually(
      `all ${total} kill jobs to run`,
      async () => (runsOf(db.url, "kill").keys >= total ? true : undefined),
      120_000,
    );
    await sleep(1000);
    const runs = runsOf(db.url, "kill");
    console.log(
      `jobs: worker SIGKILLed mid-jobs: ${runs.keys} of ${total} jobs ran, ${runs.rows - runs.keys} ran twice (only jobs the killed worker was running may)`,
    );
    assert.equal(runs.keys, total, "no job lost");
    assert.ok(
      runs.duplicates.length <= CONCURRENCY,
      `at most the jobs the killed worker was running ran twice: ${runs.duplicates.join(", ")}`,
    );
    workers[0] = await startWorker(root, env, "w1b", CONCURRENCY);
  });

  test("a schedule every 3 s on two workers runs once per tick", async () => {
    const [[since]] = sql(db.url, "select now()") as [[string]];
    const query = () =>
      sql(db.url, `select key, count(*) from job_runs where key like 'tick:%' and ran_at > '${since}' group by key`);
    // Waits for three ticks however long a busy machine takes; no count of ticks per second of
    // the clock is asserted, only that each tick ran once and that they are the schedule's own.
    const ticks = await eventually("three ticks of the 3 s schedule", async () => {
      const found = query();
      return found.length >= 3 ? found : undefined;
    });
    console.log(
      `jobs: ${ticks.length} ticks of the 3 s schedule, each run ${ticks.every(([, n]) => n === "1") ? "once" : "MORE THAN ONCE"}`,
    );
    assert.ok(
      ticks.every(([, n]) => n === "1"),
      `each tick runs once: ${JSON.stringify(ticks)}`,
    );
    // Each tick's job is named by its time (repeat:<scheduler>:<ms>): one schedule, not one per
    // worker, so the ticks are 3 s apart.
    const times = ticks.map(([key]) => Number(String(key).split(":").at(-1))).sort((a, b) => a - b);
    assert.ok(
      times.every((time) => Number.isInteger(time)),
      JSON.stringify(ticks),
    );
    for (let i = 1; i < times.length; i++)
      assert.ok(times[i]! - times[i - 1]! >= 3000, `one run per tick, not one per worker: ${JSON.stringify(ticks)}`);
  });

  test("a mail job retries while SMTP is down and is delivered when it comes back", async () => {
    const browser = httpClient(nodes[1]!.url, { headers: VIA_TLS });
    const signup = await browser.page("/signup");
    await browser.form("/signup", {
      _csrf_token: csrfFrom(signup.text),
      username: "mailer",
      email: "mailer@example.test",
      name: "Mailer",
      password: "mailer-password-1",
      password_confirm: "mailer-password-1",
    });
    const lost = await browser.page("/lost-password");
    const res = await browser.form("/lost-password", {
      _csrf_token: csrfFrom(lost.text),
      email: "mailer@example.test",
    });
    assert.equal(res.status, 303, "the page answers while SMTP is down");
    await sleep(4000);
    smtp = await startSmtp({ port: smtpPort });
    const deadline = Date.now() + 90_000;
    let reset: string | undefined;
    while (!reset && Date.now() < deadline) {
      const mail = await smtp.waitForMail(deadline - Date.now());
      if (/reset-password\//.test(mail.parsed.text ?? "")) reset = mail.parsed.text;
    }
    assert.ok(reset, "the reset mail arrived after SMTP came back");
    console.log("jobs: the reset mail, queued while SMTP was down, was delivered once it came back");
  });

  test("Redis stopped 10 s while a node dispatches: 503 within the dispatch timeout, never a hang; every job accepted runs once Redis is back", async () => {
    const statuses: Record<string, number> = {};
    const accepted: string[] = [];
    let slowest = 0;
    let running = true;
    let n = 0;
    const loop = (async () => {
      while (running) {
        const prefix = `out${n++}x`;
        const started = Date.now();
        const status = await fetch(`${nodes[0]!.url}/dispatch/${prefix}/1/0`, {
          headers: { connection: "close" },
          // Ends a hang (an answer of 0 fails the test below), not a slow answer of a busy machine.
          signal: AbortSignal.timeout(60_000),
        }).then(
          async (res) => {
            await res.arrayBuffer();
            return res.status;
          },
          () => 0,
        );
        slowest = Math.max(slowest, Date.now() - started);
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status === 200) accepted.push(`${prefix}-0`);
        await sleep(100);
      }
    })();
    await sleep(2000);
    await redis.stop();
    await sleep(10_000);
    await redis.start();
    await sleep(4000);
    running = false;
    await loop;
    console.log(
      `jobs: Redis stopped 10 s during dispatches: answers ${JSON.stringify(statuses)}, slowest ${slowest} ms; ${accepted.length} accepted`,
    );
    assert.ok(
      (statuses["503"] ?? 0) > 0,
      `dispatches refused with 503 while Redis was down: ${JSON.stringify(statuses)}`,
    );
    assert.deepEqual(Object.keys(statuses).sort(), ["200", "503"], "only 200 and 503: no hang, no 500");
    // No duration is asserted: every answer above was 200 or 503, so no dispatch outlived the
    // queue's own dispatch timeout (past it, a dispatch is refused with 503).
    await eventually(
      "every accepted job to run",
      async () => {
        const ran = new Set(sql(db.url, "select key from job_runs where key like 'out%'").map(([key]) => key!));
        return accepted.every((key) => ran.has(key)) ? true : undefined;
      },
      90_000,
    );
  });

  test("SIGTERM: a worker finishes its running jobs within the grace and exits 0", async () => {
    await dispatch(nodes[0]!, "term", 10, 1500);
    await sleep(800);
    const exit = await workers[1]!.stop("SIGTERM");
    assert.equal(exit.code, 0, workers[1]!.output().slice(-2000));
    await eventually("the term jobs", async () => (runsOf(db.url, "term").keys >= 10 ? true : undefined), 60_000);
    assert.equal(runsOf(db.url, "term").duplicates.length, 0);
  });
});

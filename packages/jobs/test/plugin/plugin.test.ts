// The jobs battery as a host plugin: the app's jobs found in jobs/, the queue QUEUE_URL names run
// in the process in development, the test fake in the test environment, sync: inline, and the
// config refused at start-up with the key named.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import type { AddressInfo } from "node:net";
import { after, describe, test } from "node:test";
import { requireServer } from "@fwkit/test-servers";
import { fileURLToPath } from "node:url";
import type { Host } from "@fwkit/koa-host";
import { createHost, HostView } from "@fwkit/koa-host/plugin";
import { defineConventions } from "routing-kernel";
import { jobsOf, jobsPlugin } from "../../src/index.js";
import { RecordRun, runs } from "../fixtures/plugin-app/jobs/record.js";

const root = fileURLToPath(new URL("../fixtures/plugin-app/", import.meta.url));
class View extends HostView {}
const conventions = defineConventions({ baseClass: View, trailingSlash: false });
const responder = () => ({ prepare: () => () => {}, renderError: () => {}, describe: () => "text" });

/** What the app logged at info and above: messages only. */
const logged: string[] = [];
const note = (_fields: unknown, msg?: unknown) => void logged.push(String(msg));
const logger: Record<string, unknown> = {
  level: "info",
  trace: () => {},
  debug: () => {},
  info: note,
  warn: note,
  error: note,
  fatal: note,
  isLevelEnabled: () => true,
};
logger["child"] = () => logger;

function build(config: Record<string, unknown>): Promise<Host> {
  return createHost({
    root,
    conventions,
    responder,
    modules: [],
    plugins: [jobsPlugin()],
    logger: logger as never,
    config: { logRequests: false, ...config },
  });
}

async function until(what: string, check: () => boolean): Promise<void> {
  // Only ends a hang: the wait ends at the event, however busy the machine.
  const deadline = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("jobs plugin", () => {
  test("development: memory: by default, the jobs of jobs/ are found and run in the process", async () => {
    const host = await build({ env: "development" });
    try {
      const jobs = jobsOf(host)!;
      assert.equal(jobs.kind, "memory");
      assert.deepEqual(
        jobs.queue!.jobs().map((entry) => entry.name),
        ["RecordRun"],
      );
      await RecordRun.dispatch({ text: "dev" });
      await until("the job to run", () => runs.includes("dev"));
    } finally {
      await host.close();
    }
  });

  test("test environment: the fake records dispatches (schema checked) and runAll runs them", async () => {
    const host = await build({ env: "test" });
    try {
      const fake = jobsOf(host)!.fake!;
      await RecordRun.dispatch({ text: "faked" });
      await assert.rejects(
        RecordRun.dispatch({ text: 7 } as never),
        (error: Error & { code?: string }) => error.code === "E_JOB_PAYLOAD_INVALID",
      );
      assert.deepEqual(
        fake.dispatched(RecordRun).map((entry) => entry.payload),
        [{ text: "faked" }],
      );
      assert.ok(!runs.includes("faked"));
      assert.equal(await fake.runAll(), 1);
      assert.ok(runs.includes("faked"));
    } finally {
      await host.close();
    }
  });

  test("sync: runs the job inside dispatch's await; after close, dispatch has no queue", async () => {
    const host = await build({ env: "test", queueUrl: "sync:", jobs: { fake: false } });
    await RecordRun.dispatch({ text: "inline" });
    assert.equal(runs.at(-1), "inline");
    await host.close();
    await assert.rejects(
      async () => RecordRun.dispatch({ text: "late" }),
      (error: Error & { code?: string }) => error.code === "E_JOB_NO_QUEUE",
    );
  });

  test("bad config stops the start naming the key", async () => {
    const code = (expected: string, pattern?: RegExp) => (error: Error & { code?: string }) =>
      error.code === expected && (!pattern || pattern.test(error.message));
    await assert.rejects(build({ env: "test", queueUrl: "ftp://queue.example" }), code("E_QUEUE_URL_INVALID"));
    await assert.rejects(build({ env: "test", jobs: { worker: 2 } }), code("E_CONFIG_UNKNOWN_KEY", /workers/));
    await assert.rejects(build({ env: "test", jobs: { workers: -1 } }), code("E_JOB_OPTION_INVALID", /jobs\.workers/));
    await assert.rejects(build({ env: "test", jobs: { dashboard: { paht: "/x" } } }), code("E_UNKNOWN_OPTION", /path/));
    await assert.rejects(
      build({
        env: "production",
        secretKey: crypto.randomUUID(),
        queueUrl: "memory:",
        jobs: { dashboard: { production: true } },
      }),
      code("E_JOB_OPTION_INVALID", /jobs\.dashboard\.guard/),
    );
  });
});

describe("jobs plugin: the dashboard", () => {
  const prefix = `plugin-dash-${process.pid}`;
  after(() => {
    spawnSync("sh", ["-c", `redis-cli -n 0 --scan --pattern '${prefix}:*' | xargs -r redis-cli -n 0 del`]);
  });

  test("development with a Redis queue serves bull-board at jobs.dashboard.path; production serves it only guarded, and the guard's no is 403", async () => {
    const redis = new URL(await requireServer("redis"));
    const queueUrl = `redis://${redis.host}/0?prefix=${prefix}`;
    const dev = await build({ env: "development", queueUrl, jobs: { dashboard: { path: "/admin/jobs" } } });
    try {
      const server = await dev.listen(0, "127.0.0.1");
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const page = await fetch(`${base}/admin/jobs`);
      assert.equal(page.status, 200);
      assert.ok(logged.includes("the jobs dashboard is served at /admin/jobs"), logged.join("\n"));
      assert.match(await page.text(), /<html/i);
      const queues = await fetch(`${base}/admin/jobs/api/queues`);
      assert.equal(queues.status, 200);
      assert.ok(JSON.stringify(await queues.json()).includes("default"));
      // Adding a job from the dashboard is a development convenience: on here.
      const added = await fetch(`${base}/admin/jobs/api/queues/default/add`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "record-run", data: { text: "from the dashboard" } }),
      });
      assert.equal(added.status, 200, await added.text());
    } finally {
      await dev.close();
    }
    const production = await build({
      env: "production",
      secretKey: crypto.randomUUID(),
      queueUrl,
      jobs: {
        dashboard: { production: true, guard: (ctx: { get(name: string): string }) => ctx.get("x-admin") === "yes" },
      },
    });
    try {
      const server = await production.listen(0, "127.0.0.1");
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      assert.equal((await fetch(`${base}/jobs`)).status, 403);
      assert.equal((await fetch(`${base}/jobs`, { headers: { "x-admin": "yes" } })).status, 200);
      // In production adding a job (or editing its data) is off unless jobs.dashboard.edit says so, even for admins.
      const added = await fetch(`${base}/jobs/api/queues/default/add`, {
        method: "POST",
        headers: { "x-admin": "yes", "content-type": "application/json" },
        body: JSON.stringify({ name: "fwkit.deliver-mail", data: { to: ["someone@outside.example"] } }),
      });
      assert.equal(added.status, 403);
      assert.match(await added.text(), /edit option/);
    } finally {
      await production.close();
    }
  });
});

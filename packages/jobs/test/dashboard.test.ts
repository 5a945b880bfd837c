// The bull-board dashboard as a Koa middleware: behind its guard, over the queue's BullMQ queues.
import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { after, test } from "node:test";
import { requireServer, serverUrls } from "@fwkit/test-servers";
import Koa from "koa";
import { createJobQueue, type JobQueue } from "../src/index.js";
import { jobsDashboard } from "../src/dashboard.js";
import { Greet } from "./fixtures/jobs.js";
import { dropPrefix, uniquePrefix } from "./helpers.js";

const prefix = uniquePrefix("dashboard");
const queues: JobQueue[] = [];
after(async () => {
  for (const queue of queues) await queue.close();
  await dropPrefix(serverUrls.redis, prefix);
});

test("served under its path to the requests the guard lets through; 403 to the others; other paths pass by", async () => {
  await requireServer("redis");
  const queue = await createJobQueue({ url: serverUrls.redis, prefix, jobs: [Greet], bind: false });
  queues.push(queue);
  await queue.dispatch(Greet, { name: "Ada" });
  const app = new Koa();
  app.use(
    jobsDashboard(queue, { path: "/admin/jobs", guard: (ctx) => ctx.get("x-admin") === "yes", title: "Shop jobs" }),
  );
  app.use((ctx) => {
    ctx.body = "the app";
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    assert.equal((await fetch(`${base}/admin/jobs`)).status, 403);
    assert.equal((await fetch(`${base}/admin/jobs/api/queues`)).status, 403);
    const page = await fetch(`${base}/admin/jobs`, { headers: { "x-admin": "yes" } });
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<html/i);
    const api = await fetch(`${base}/admin/jobs/api/queues?activeQueue=default&status=waiting`, {
      headers: { "x-admin": "yes" },
    });
    assert.equal(api.status, 200);
    const body = (await api.json()) as { queues: Array<{ name: string; counts: Record<string, number> }> };
    assert.deepEqual(
      body.queues.map((q) => q.name),
      ["default"],
    );
    assert.equal(body.queues[0]!.counts["waiting"], 1);
    assert.equal(await (await fetch(`${base}/elsewhere`)).text(), "the app");
  } finally {
    server.close();
  }
});

test("a queue that is not on Redis has no dashboard: E_JOBS_DASHBOARD_UNSUPPORTED; a bad option is refused", async () => {
  const queue = await createJobQueue({ url: "memory:", bind: false });
  queues.push(queue);
  assert.throws(() => jobsDashboard(queue), { code: "E_JOBS_DASHBOARD_UNSUPPORTED" });
  assert.throws(() => jobsDashboard(queue, { path: "admin" }), { code: "E_JOB_OPTION_INVALID" });
  assert.throws(() => jobsDashboard(queue, { gaurd: () => true } as never), { code: "E_UNKNOWN_OPTION" });
});

test("adding a job or editing job data answers 403 unless edit is on; data fields named like secrets are shown redacted", async () => {
  await requireServer("redis");
  const queue = await createJobQueue({ url: serverUrls.redis, prefix, jobs: [Greet], bind: false });
  queues.push(queue);
  const { id } = await queue.dispatch(Greet, { name: "Ada" });
  // A job of another app (or written by hand) whose payload names a secret.
  await (queue.driver as import("../src/drivers/bullmq.js").BullMQDriver)
    .queue("default")
    .add("invite", { email: "a@example.test", inviteLink: "https://x.example/invite/tok_123456", password: "hunter2" });
  const serve = async (edit: boolean | undefined) => {
    const app = new Koa();
    app.use(jobsDashboard(queue, { path: "/jobs", ...(edit === undefined ? {} : { edit }) }));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jobs` };
  };
  const json = { "content-type": "application/json" };
  const locked = await serve(undefined);
  try {
    const added = await fetch(`${locked.base}/api/queues/default/add`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ name: "greet", data: { name: "Mallory" } }),
    });
    assert.equal(added.status, 403);
    assert.match(await added.text(), /edit option/);
    const edited = await fetch(`${locked.base}/api/queues/default/${id}/update-data`, {
      method: "PATCH",
      headers: json,
      body: JSON.stringify({ data: { name: "Mallory" } }),
    });
    assert.equal(edited.status, 403);
    const listed = await fetch(`${locked.base}/api/queues?activeQueue=default&status=waiting&page=1`);
    const text = await listed.text();
    assert.equal(listed.status, 200);
    assert.doesNotMatch(text, /tok_123456|hunter2/);
    assert.match(text, /\[redacted\]/);
    assert.match(text, /a@example\.test/);
  } finally {
    locked.server.close();
  }
  const open = await serve(true);
  try {
    const added = await fetch(`${open.base}/api/queues/default/add`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ name: "greet", data: { name: "Mallory" } }),
    });
    assert.equal(added.status, 200, await added.text());
  } finally {
    open.server.close();
  }
});

// A reset mail queued on Redis holds a live link: it is kept sealed (encrypted with a key from the
// app's secret key), so after a reset request no key or value of the queue's Redis, no answer of the
// jobs dashboard and no failed-job listing holds the token; the mail still arrives with it.
import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { jobsOf } from "@fwkit/jobs";
import { jobsDashboard } from "@fwkit/jobs/dashboard";
import { httpClient, requireServer } from "@fwkit/test-servers";
import { createRequire } from "node:module";
import Koa from "koa";
import { createUser, linkIn, startContribApp, type ContribApp } from "./fixture.js";

const prefix = `fwb-mailsecret-${process.pid}`;
// The Redis client the queue itself runs on (a dependency of BullMQ, beside the jobs battery).
interface RedisClient {
  keys(pattern: string): Promise<string[]>;
  type(key: string): Promise<string>;
  hgetall(key: string): Promise<Record<string, string>>;
  get(key: string): Promise<string | null>;
  lrange(key: string, start: number, stop: number): Promise<string[]>;
  zrange(key: string, start: number, stop: number): Promise<string[]>;
  smembers(key: string): Promise<string[]>;
  xrange(key: string, start: string, end: string): Promise<unknown>;
  del(...keys: string[]): Promise<number>;
  disconnect(): void;
}
const { Redis } = createRequire(import.meta.resolve("@fwkit/jobs"))("ioredis") as {
  Redis: new (url: string) => RedisClient;
};

/** Every key under the prefix with its value, as text. */
async function dumpRedis(url: string): Promise<string[]> {
  const redis = new Redis(url);
  try {
    const out: string[] = [];
    for (const key of await redis.keys(`${prefix}*`)) {
      const type = await redis.type(key);
      const value =
        type === "hash"
          ? JSON.stringify(await redis.hgetall(key))
          : type === "string"
            ? String(await redis.get(key))
            : type === "list"
              ? JSON.stringify(await redis.lrange(key, 0, -1))
              : type === "zset"
                ? JSON.stringify(await redis.zrange(key, 0, -1))
                : type === "set"
                  ? JSON.stringify(await redis.smembers(key))
                  : type === "stream"
                    ? JSON.stringify(await redis.xrange(key, "-", "+"))
                    : `(${type})`;
      out.push(`${key} ${value}`);
    }
    return out;
  } finally {
    redis.disconnect();
  }
}

describe("contrib mails queued on Redis keep their links sealed", () => {
  let app: ContribApp;
  let redisUrl: string;
  before(async () => {
    redisUrl = await requireServer("redis");
    app = await startContribApp({
      contrib: { auth: true },
      config: {
        queueUrl: `redis://${new URL(redisUrl).host}/0?prefix=${prefix}`,
        jobs: { fake: false, workers: 1 },
      },
    });
  });
  after(async () => {
    await app?.close();
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  test("after a reset request no Redis key, dashboard answer or failed-job listing holds the token", async () => {
    const jobs = jobsOf(app.host)!;
    assert.equal(jobs.kind, "bullmq");
    await createUser(app, { username: "sealed", password: "sealed-pass-1" });
    const browser = httpClient(app.url);
    const token = await browser.csrfToken("/lost-password");
    const res = await browser.form("/lost-password", { _csrf_token: token, email: "sealed@example.test" });
    assert.equal(res.status, 303);
    const mail = await app.nextMail();
    const link = linkIn(mail.text, "/reset-password/");
    const secret = link
      .split("/reset-password/")[1]!
      .split(/[/?#]/)
      .filter(Boolean)
      .sort((a, b) => b.length - a.length)[0]!;
    assert.ok(secret.length >= 16, `the reset token: ${link}`);

    const stored = await dumpRedis(redisUrl);
    assert.ok(
      stored.some((entry) => entry.includes("fwkit.deliver-mail")),
      "the mail went through the queue",
    );
    for (const entry of stored) {
      assert.ok(!entry.includes(secret), `Redis holds the reset token: ${entry.slice(0, 400)}`);
      assert.ok(!entry.includes("sealed@example.test"), `Redis holds the recipient: ${entry.slice(0, 400)}`);
    }

    const board = new Koa();
    board.use(jobsDashboard(jobs.queue!, { path: "/jobs" }));
    const server = board.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jobs`;
    try {
      const answers: string[] = [];
      for (const status of ["completed", "latest", "failed", "waiting"]) {
        const listed = await fetch(`${base}/api/queues?activeQueue=default&status=${status}&page=1`);
        assert.equal(listed.status, 200);
        answers.push(await listed.text());
      }
      const ids = [...answers.join("").matchAll(/"id":"(\d+)"/g)].map((match) => match[1]);
      assert.ok(ids.length > 0, "the dashboard lists the mail job");
      for (const id of ids) answers.push(await (await fetch(`${base}/api/queues/default/${id}`)).text());
      for (const answer of answers)
        assert.ok(!answer.includes(secret), `the dashboard shows the token: ${answer.slice(0, 400)}`);
    } finally {
      server.close();
    }
    assert.ok(!JSON.stringify(await jobs.queue!.failed()).includes(secret));
  });
});

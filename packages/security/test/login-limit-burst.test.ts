/**
 * Failed-login limits under concurrency: a burst of parallel attempts (29 wrong passwords and the
 * right one last) is counted atomically before any password is checked, so no more attempts than
 * the limit reach the password check, in memory and in Redis shared by two app processes.
 */
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { Redis } from "ioredis";
import { requireServer, serverSkip, serverUrls } from "@fwkit/test-servers";
import { attemptLogin, csrfToken } from "../src/index.js";
import { post, startApp, USERS, View, type TestApp } from "./helpers/app.js";
import { HttpClient, type HttpAnswer } from "@fwkit/test-servers";

let checks = 0;

class Auth extends View {
  form() {
    return { token: csrfToken(this.ctx) };
  }

  @post
  async login() {
    const { account = "", password = "" } = (this.ctx.request as { body?: Record<string, string> }).body ?? {};
    const user = await attemptLogin(this.ctx, account, async () => {
      checks++;
      // A password check takes time (a hash): the attempts of a burst overlap here.
      await new Promise((resolve) => setTimeout(resolve, 30));
      return Object.values(USERS).find((u) => u.name === account && u.password === password);
    });
    if (!user) {
      this.ctx.status = 401;
      return { error: "wrong account or password" };
    }
    return { ok: true };
  }
}

/** 29 wrong passwords and the right one, sent at once over separate connections; answers by status. */
async function burst(clients: readonly HttpClient[], account: string, right: string): Promise<Record<number, number>> {
  const tokens = await Promise.all(
    clients.map(async (client) => (await client.get("/auth/form")).json<{ token: string }>().token),
  );
  const sends: Promise<HttpAnswer>[] = [];
  for (let i = 0; i < 30; i++) {
    const client = clients[i % clients.length]!;
    const token = tokens[i % clients.length]!;
    sends.push(
      client.post("/auth/login", { form: { account, password: i === 29 ? right : `wrong-${i}`, _csrf_token: token } }),
    );
  }
  const statuses: Record<number, number> = {};
  for (const response of await Promise.all(sends)) statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  return statuses;
}

describe("failed-login limits under a burst of parallel attempts", () => {
  const apps: TestApp[] = [];
  const prefix = `login_burst_test_${process.pid}_${Date.now().toString(36)}:`;
  after(async () => {
    for (const app of apps) await app.close();
    if (process.env["FW_TEST_NO_SERVERS"] === "1") return;
    const redis = new Redis(serverUrls.redis);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  test("memory: only the limit's number of attempts reach the password check; the rest are 429", async () => {
    const app = await startApp({
      views: { Auth },
      security: { loginLimitAccount: 5, loginLimitAddress: 20, loginLimitWindow: 60 },
    });
    apps.push(app);
    const before = checks;
    const statuses = await burst([new HttpClient(app.url)], "alice", "wonderland");
    assert.equal(checks - before, 5, `passwords checked: ${checks - before}, answers ${JSON.stringify(statuses)}`);
    assert.equal(statuses[429], 25, JSON.stringify(statuses));
    assert.equal((statuses[401] ?? 0) + (statuses[200] ?? 0), 5, JSON.stringify(statuses));
    // Once over the limit the right password is refused too (unless it was among the first five).
    const client = new HttpClient(app.url);
    const { token } = (await client.get("/auth/form")).json<{ token: string }>();
    const right = await client.post("/auth/login", {
      form: { account: "alice", password: "wonderland", _csrf_token: token },
    });
    assert.equal(right.status, statuses[200] === 1 ? 200 : 429);
  });

  test(
    "Redis: a burst split over two app processes sharing the counters passes no more than the limit",
    serverSkip,
    async () => {
      await requireServer("redis");
      const security = {
        loginLimitUrl: `${serverUrls.redis}?prefix=${encodeURIComponent(prefix)}`,
        loginLimitAccount: 5,
        loginLimitAddress: 20,
        loginLimitWindow: 60,
      };
      const first = await startApp({ views: { Auth }, security });
      const second = await startApp({ views: { Auth }, security });
      apps.push(first, second);
      const before = checks;
      const statuses = await burst([new HttpClient(first.url), new HttpClient(second.url)], "alice", "wonderland");
      assert.equal(checks - before, 5, `passwords checked: ${checks - before}, answers ${JSON.stringify(statuses)}`);
      assert.equal(statuses[429], 25, JSON.stringify(statuses));
      const client = new HttpClient(second.url);
      const { token } = (await client.get("/auth/form")).json<{ token: string }>();
      const right = await client.post("/auth/login", {
        form: { account: "alice", password: "wonderland", _csrf_token: token },
      });
      assert.equal(right.status, statuses[200] === 1 ? 200 : 429, "over the limit the right password is refused");
    },
  );
});

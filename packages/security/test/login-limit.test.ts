/**
 * Failed-login limits: per account and per client address, 429 with Retry-After once over the
 * limit (before the password is even checked), in memory by default and in Redis across app
 * processes when configured. A Redis limiter that is down gives 503, not a 500.
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
    // `account` is whatever the client sent (a JSON body may hold any type); attemptLogin copes.
    const user = await attemptLogin(this.ctx, account, () => {
      checks++;
      return Object.values(USERS).find((u) => u.name === account && u.password === password);
    });
    if (!user) {
      this.ctx.status = 401;
      return { error: "wrong account or password" };
    }
    return { ok: true, user: user.name };
  }
}

async function attempt(client: HttpClient, account: string, password: string): Promise<HttpAnswer> {
  const { token } = (await client.get("/auth/form")).json<{ token: string }>();
  return client.post("/auth/login", { form: { account, password, _csrf_token: token } });
}

function assertLimited(response: HttpAnswer): void {
  assert.equal(response.status, 429, response.text);
  const retry = Number(response.headers.get("retry-after"));
  assert.ok(
    Number.isInteger(retry) && retry >= 1 && retry <= 60,
    `Retry-After is a number of seconds within the window (got ${retry})`,
  );
  assert.match(response.text, /Too many failed login attempts\. Try again in \d+ seconds?/);
}

describe("failed-login limits (memory)", () => {
  const apps: TestApp[] = [];
  after(async () => {
    for (const app of apps) await app.close();
  });

  test("per account: after the limit the account gets 429, even with the right password; others are unaffected", async () => {
    const app = await startApp({
      views: { Auth },
      security: { loginLimitAccount: 3, loginLimitAddress: 100, loginLimitWindow: 60 },
    });
    apps.push(app);
    const client = new HttpClient(app.url);
    for (let i = 0; i < 3; i++) assert.equal((await attempt(client, "alice", "wrong")).status, 401);
    const before = checks;
    assertLimited(await attempt(client, "alice", "wonderland"));
    assert.equal(checks, before, "the password is not even checked while limited");
    assertLimited(await attempt(client, "ALICE ", "wonderland"));
    assert.equal(
      (await attempt(client, "bob", "builder")).status,
      200,
      "another account from the same address still logs in",
    );
  });

  test("a successful login clears the account's failures", async () => {
    const app = await startApp({
      views: { Auth },
      security: { loginLimitAccount: 3, loginLimitAddress: 100, loginLimitWindow: 60 },
    });
    apps.push(app);
    const client = new HttpClient(app.url);
    for (let i = 0; i < 2; i++) await attempt(client, "bob", "wrong");
    assert.equal((await attempt(client, "bob", "builder")).status, 200);
    for (let i = 0; i < 2; i++)
      assert.equal((await attempt(client, "bob", "wrong")).status, 401, "counting starts again from zero");
  });

  test("per address: many accounts from one address hit the address limit", async () => {
    const app = await startApp({
      views: { Auth },
      security: { loginLimitAccount: 100, loginLimitAddress: 4, loginLimitWindow: 60 },
    });
    apps.push(app);
    const client = new HttpClient(app.url);
    for (let i = 0; i < 4; i++) assert.equal((await attempt(client, `user${i}`, "guess")).status, 401);
    assertLimited(await attempt(client, "someone-else", "guess"));
  });

  test("an account name of any type or size from a JSON body is a normal failure, not a 500", async () => {
    const app = await startApp({ views: { Auth }, security: { loginLimitAccount: 100, loginLimitAddress: 100 } });
    apps.push(app);
    const client = new HttpClient(app.url);
    for (const account of [42, { $ne: null }, ["alice"], null, "a".repeat(100_000)]) {
      const { token } = (await client.get("/auth/form")).json<{ token: string }>();
      const response = await client.post("/auth/login", {
        json: { account, password: "x" },
        headers: { "X-CSRF-Token": token },
      });
      assert.equal(response.status, 401, JSON.stringify(account).slice(0, 40));
    }
  });

  test("the window ends: attempts are allowed again after Retry-After", async () => {
    const app = await startApp({
      views: { Auth },
      // Long enough that the second attempt lands inside the window however busy the machine is.
      security: { loginLimitAccount: 1, loginLimitAddress: 100, loginLimitWindow: 3 },
    });
    apps.push(app);
    const client = new HttpClient(app.url);
    await attempt(client, "alice", "wrong");
    const limited = await attempt(client, "alice", "wonderland");
    assertLimited(limited);
    // Waits as long as the answer says, and no longer.
    const retry = Number(limited.headers.get("retry-after"));
    assert.ok(retry <= 3, `Retry-After within the 3 s window (got ${retry})`);
    await new Promise((resolve) => setTimeout(resolve, retry * 1000 + 100));
    assert.equal((await attempt(client, "alice", "wonderland")).status, 200);
  });
});

describe("failed-login limits (Redis, shared by app processes)", serverSkip, () => {
  const prefix = `login_limit_test_${process.pid}_${Date.now().toString(36)}:`;
  const apps: TestApp[] = [];
  after(async () => {
    for (const app of apps) await app.close();
    const redis = new Redis(serverUrls.redis);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  test("failures counted by one app limit the other", async () => {
    await requireServer("redis");
    const security = {
      loginLimitUrl: `${serverUrls.redis}?prefix=${encodeURIComponent(prefix)}`,
      loginLimitAccount: 3,
      loginLimitWindow: 60,
    };
    const first = await startApp({ views: { Auth }, security });
    const second = await startApp({ views: { Auth }, security });
    apps.push(first, second);
    for (let i = 0; i < 3; i++) assert.equal((await attempt(new HttpClient(first.url), "alice", "wrong")).status, 401);
    assertLimited(await attempt(new HttpClient(second.url), "alice", "wonderland"));
    const redis = new Redis(serverUrls.redis);
    const ttl = await redis.pttl((await redis.keys(`${prefix}acct:*`))[0]!);
    await redis.quit();
    assert.ok(ttl > 0 && ttl <= 60_000, "the counter expires with the window");
  });

  test("the Redis limiter unreachable gives 503 with a clear message", async () => {
    const app = await startApp({ views: { Auth }, security: { loginLimitUrl: "redis://127.0.0.1:1/0" } });
    apps.push(app);
    const response = await attempt(new HttpClient(app.url), "alice", "wonderland");
    assert.equal(response.status, 503);
    assert.match(response.text, /login-attempt store cannot be reached/);
  });
});

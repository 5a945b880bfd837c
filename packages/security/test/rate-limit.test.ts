/**
 * `@rateLimit`: 429 with Retry-After once a view's limit is used up, counted per address, per key
 * of the app's (an email address in the body) or per user; limits stack; the `rateLimits` config
 * block retunes or switches a named limit off; options are checked when the decorator is applied;
 * with Redis the counters are shared by two app processes; a burst passes no more than the limit.
 */
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import type { Context } from "koa";
import { Redis } from "ioredis";
import { requireServer, serverSkip, serverUrls } from "@fwkit/test-servers";
import { csrfExempt, login, rateLimit } from "../src/index.js";
import type { Route } from "routing-kernel";
import { securityOpenApi } from "../src/openapi.js";
import { parseRateLimit, RATE_LIMIT_TAG_PREFIX } from "../src/rate-limit.js";
import { post, startApp, USERS, View, type TestApp } from "./helpers/app.js";
import { HttpClient, type HttpAnswer } from "@fwkit/test-servers";

const emailOf = (ctx: Context) =>
  (ctx.request as { body?: Record<string, unknown> }).body?.["email"] as string | undefined;

@csrfExempt
class Forms extends View {
  @post
  @rateLimit({ max: 3, window: "1m" })
  async perAddress() {
    return { ok: true };
  }

  @post
  @rateLimit({ max: 10, window: "1m", name: "reset-per-client" })
  @rateLimit({ max: 2, window: "15m", by: emailOf, message: "Too many reset mails for this address." })
  async reset() {
    return { ok: true };
  }

  @post
  @rateLimit({ max: 2, window: 60, by: "user" })
  async perUser() {
    return { ok: true };
  }

  @post
  async signIn() {
    const body = (this.ctx.request as { body?: Record<string, string> }).body ?? {};
    await login(this.ctx, USERS[body["id"] ?? ""]);
    return { ok: true };
  }

  @post
  @rateLimit({ max: 1, window: "1h", name: "tuned" })
  async tuned() {
    return { ok: true };
  }

  @post
  @rateLimit({ max: 1, window: "1h", name: "switched-off" })
  async off() {
    return { ok: true };
  }
}

function assertLimited(response: HttpAnswer, message = /Too many requests\. Try again in \d+ seconds?\./): void {
  assert.equal(response.status, 429, response.text);
  const retry = Number(response.headers.get("retry-after"));
  assert.ok(Number.isInteger(retry) && retry >= 1, `Retry-After is a number of seconds (got ${retry})`);
  assert.match(response.text, message);
}

describe("@rateLimit", () => {
  const apps: TestApp[] = [];
  const prefix = `rate_limit_test_${process.pid}_${Date.now().toString(36)}:`;
  after(async () => {
    for (const app of apps) await app.close();
    if (process.env["FW_TEST_NO_SERVERS"] === "1") return;
    const redis = new Redis(serverUrls.redis);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  test("per address: the request after max is 429 with Retry-After; a window of 1m says at most 60 seconds", async () => {
    const app = await startApp({ views: { Forms } });
    apps.push(app);
    const client = new HttpClient(app.url);
    for (let i = 0; i < 3; i++) assert.equal((await client.post("/forms/per-address", { form: {} })).status, 200);
    const limited = await client.post("/forms/per-address", { form: {} });
    assertLimited(limited);
    assert.ok(Number(limited.headers.get("retry-after")) <= 60);
  });

  test("per key: two mails to one address, whatever the client; stacked limits each count; a refused request counts against none", async () => {
    const app = await startApp({ views: { Forms } });
    apps.push(app);
    const client = new HttpClient(app.url);
    const reset = (email: string) => client.post("/forms/reset", { form: { email } });
    assert.equal((await reset("victim@example.test")).status, 200);
    assert.equal((await reset("VICTIM@example.test")).status, 200, "another key");
    assert.equal((await reset("victim@example.test")).status, 200);
    assertLimited(
      await reset("victim@example.test"),
      /Too many reset mails for this address\. Try again in \d+ seconds?\./,
    );
    // Per client: 10 in all, and the refused one above was not counted (3 counted so far).
    for (let i = 0; i < 7; i++) assert.equal((await reset(`other${i}@example.test`)).status, 200, `request ${i}`);
    assertLimited(await reset("fresh@example.test"));
  });

  test("per user: each logged-in user has a counter; anonymous requests count per address", async () => {
    const app = await startApp({ views: { Forms } });
    apps.push(app);
    const alice = new HttpClient(app.url);
    const bob = new HttpClient(app.url);
    await alice.post("/forms/sign-in", { form: { id: "1" } });
    await bob.post("/forms/sign-in", { form: { id: "2" } });
    for (let i = 0; i < 2; i++) assert.equal((await alice.post("/forms/per-user", { form: {} })).status, 200);
    assertLimited(await alice.post("/forms/per-user", { form: {} }));
    assert.equal((await bob.post("/forms/per-user", { form: {} })).status, 200, "bob has his own counter");
  });

  test("the rateLimits config block retunes a named limit and switches one off", async () => {
    const app = await startApp({
      views: { Forms },
      config: { rateLimits: { tuned: { max: 2 }, "switched-off": false } },
    });
    apps.push(app);
    const client = new HttpClient(app.url);
    for (let i = 0; i < 2; i++) assert.equal((await client.post("/forms/tuned", { form: {} })).status, 200);
    assertLimited(await client.post("/forms/tuned", { form: {} }));
    for (let i = 0; i < 5; i++) assert.equal((await client.post("/forms/off", { form: {} })).status, 200);
    await assert.rejects(startApp({ views: { Forms }, config: { rateLimits: { tuned: { maximum: 2 } } } }), {
      code: "E_UNKNOWN_OPTION",
    });
  });

  test("a burst of parallel requests passes exactly max", async () => {
    const app = await startApp({ views: { Forms } });
    apps.push(app);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => new HttpClient(app.url).post("/forms/per-address", { form: {} })),
    );
    assert.equal(answers.filter((answer) => answer.status === 200).length, 3);
    assert.equal(answers.filter((answer) => answer.status === 429).length, 17);
  });

  test("options are checked when the decorator is applied: unknown keys name the known ones, bad values are coded errors", () => {
    assert.throws(
      () => rateLimit({ max: 5, window: "1m", per: "ip" } as never),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, "E_UNKNOWN_OPTION");
        assert.match(error.message, /per/);
        assert.match(error.message, /max.*window.*by.*name.*message/s);
        return true;
      },
    );
    assert.throws(() => rateLimit({ max: 0, window: "1m" }), { code: "E_RATE_LIMIT_INVALID" });
    assert.throws(() => rateLimit({ max: 5, window: "1 minute" }), { code: "E_RATE_LIMIT_INVALID" });
    assert.throws(() => rateLimit({ max: 5, window: "1m", by: "session" as never }), { code: "E_RATE_LIMIT_INVALID" });
    assert.throws(() => rateLimit(undefined as never), { code: "E_RATE_LIMIT_INVALID" });
    assert.equal(parseRateLimit({ max: 5, window: "2h" }).windowSeconds, 7200);
    assert.equal(parseRateLimit({ max: 5, window: 90 }).windowSeconds, 90);
  });

  test("the OpenAPI document lists 429 for a rate-limited route", () => {
    const openApi = securityOpenApi({ sessionCookie: "session" });
    const route = {
      verbs: ["GET"],
      tags: { [`${RATE_LIMIT_TAG_PREFIX}1`]: parseRateLimit({ max: 1, window: 1 }) },
    } as unknown as Route;
    assert.match(String(openApi.route(route)?.responses["429"]), /Retry-After/);
    assert.equal(openApi.route({ verbs: ["GET"], tags: {} } as unknown as Route), undefined);
  });

  test("Redis: two app processes share the counters; the store unreachable refuses with 503", serverSkip, async () => {
    await requireServer("redis");
    const security = { loginLimitUrl: `${serverUrls.redis}?prefix=${encodeURIComponent(prefix)}` };
    const first = await startApp({ views: { Forms }, security });
    const second = await startApp({ views: { Forms }, security });
    apps.push(first, second);
    assert.equal((await new HttpClient(first.url).post("/forms/per-address", { form: {} })).status, 200);
    assert.equal((await new HttpClient(second.url).post("/forms/per-address", { form: {} })).status, 200);
    assert.equal((await new HttpClient(first.url).post("/forms/per-address", { form: {} })).status, 200);
    assertLimited(await new HttpClient(second.url).post("/forms/per-address", { form: {} }));
    const down = await startApp({ views: { Forms }, security: { loginLimitUrl: "redis://127.0.0.1:1/0" } });
    apps.push(down);
    const refused = await new HttpClient(down.url).post("/forms/per-address", { form: {} });
    assert.equal(refused.status, 503);
    assert.match(refused.text, /rate-limit store cannot be reached/);
  });
});

/**
 * Flooding the in-memory counter table never lifts a lockout: the login limiter and the rate
 * limits share one bounded table (the cluster primary's under `start --workers`), and a flood of
 * new keys (an invite form per address typed, the docs' stacked limits) must neither drop a live
 * login window nor count a request one of its limits refuses. The table is small here (the
 * production one holds 100,000 windows) to keep the flood short.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Context, Middleware } from "koa";
import type { Route } from "routing-kernel";
import { LoginLimiter, MemoryAttemptCounter, type CounterLimit, type TakeResult } from "../src/login-limit.js";
import { parseRateLimit, RATE_LIMIT_TAG_PREFIX, rateLimitMiddleware, routeRateLimits } from "../src/rate-limit.js";

/** The docs' invite limits: per address typed (checked first), then per client. */
function inviteLimits(counter: MemoryAttemptCounter): Middleware {
  const route = {
    id: "Invite.post",
    tags: {
      [`${RATE_LIMIT_TAG_PREFIX}1`]: parseRateLimit({
        max: 3,
        window: "1h",
        by: (ctx: Context) => String((ctx.request as { body?: { email?: string } }).body?.email ?? ""),
      }),
      [`${RATE_LIMIT_TAG_PREFIX}2`]: parseRateLimit({ max: 10, window: "1m" }),
    },
  } as unknown as Route;
  return rateLimitMiddleware(routeRateLimits(route, new Map()), counter);
}

/** A request to the invite route from `ip` with `email` typed: its status (200, or the 429 thrown). */
async function invite(middleware: Middleware, ip: string, email: string): Promise<number> {
  const ctx = { ip, state: {}, request: { body: { email } } } as unknown as Context;
  try {
    await middleware(ctx, async () => undefined);
    return 200;
  } catch (error) {
    return (error as { status?: number }).status ?? 500;
  }
}

async function loginStatus(limiter: LoginLimiter, subject: string, address: string): Promise<number> {
  try {
    await limiter.attempt(subject, address);
    return 200;
  } catch (error) {
    return (error as { status?: number }).status ?? 500;
  }
}

test("a flood of new invite addresses from many clients leaves a locked-out account locked", async () => {
  const counter = new MemoryAttemptCounter(300);
  const limiter = new LoginLimiter(counter, { account: 5, address: 50, windowSeconds: 900 });
  for (let i = 0; i < 5; i++) assert.equal(await loginStatus(limiter, "user:bob", "192.0.2.1"), 200);
  assert.equal(await loginStatus(limiter, "user:bob", "192.0.2.1"), 429, "five wrong passwords lock bob out");
  const middleware = inviteLimits(counter);
  const statuses: Record<number, number> = {};
  for (let i = 0; i < 5000; i++) {
    const status = await invite(
      middleware,
      `198.18.${Math.floor(i / 20) % 256}.${Math.floor(i / 5120)}`,
      `x${i}@example.test`,
    );
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
  assert.ok(!statuses[500], JSON.stringify(statuses));
  assert.equal(
    await loginStatus(limiter, "user:bob", "192.0.2.2"),
    429,
    `bob is still locked out: ${JSON.stringify(statuses)}`,
  );
});

test("stacked limits are all checked before any counts: a request the per-client limit refuses opens no per-address window", async () => {
  const takes: Array<{ limits: readonly CounterLimit[]; result: TakeResult }> = [];
  const counter = new (class extends MemoryAttemptCounter {
    override async take(limits: readonly CounterLimit[], windowMs: number): Promise<TakeResult> {
      const result = await super.take(limits, windowMs);
      takes.push({ limits, result });
      return result;
    }
  })();
  const middleware = inviteLimits(counter);
  const statuses: number[] = [];
  for (let i = 0; i < 15; i++) statuses.push(await invite(middleware, "198.51.100.7", `new-${i}@example.test`));
  assert.deepEqual(statuses, [...Array(10).fill(200), ...Array(5).fill(429)]);
  const refusedSteps = takes.slice(10);
  assert.ok(
    refusedSteps.every((step) => !step.result.allowed),
    "no limit of a refused request was counted, not even for a moment",
  );
});

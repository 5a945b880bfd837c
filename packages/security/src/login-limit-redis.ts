/**
 * Attempt counters in Redis, so the limits hold across every process of every node. Each counter
 * is one key with a TTL equal to the window; checking the limits and counting is one Lua script,
 * atomic in Redis, so parallel attempts cannot all pass a check made before any was counted.
 */
import type { Redis } from "ioredis";
import { watchConnection, type OutageLog } from "@fwkit/battery-kit";
import type { AttemptCounter, CounterLimit, TakeResult } from "./login-limit.js";
import { requireDriver } from "./drivers.js";
import { failFastRedisOptions } from "./stores/redis.js";

// KEYS: the counters; ARGV[1]: the window in ms, ARGV[1 + i]: the limit of KEYS[i], ARGV[1 + n + i]:
// the window of KEYS[i] when it has its own (else ""). Refuses (0, the longest remaining window and
// the index of that full counter) when a counter is at its limit, else counts every key (1).
const TAKE_SCRIPT = `
local wait = -1
local full = 0
local n = #KEYS
for i, key in ipairs(KEYS) do
  local count = tonumber(redis.call('GET', key) or '0')
  if count >= tonumber(ARGV[i + 1]) then
    local ttl = redis.call('PTTL', key)
    if ttl < 0 then ttl = tonumber(ARGV[n + i + 1]) or tonumber(ARGV[1]) redis.call('PEXPIRE', key, ttl) end
    if ttl > wait then wait = ttl full = i - 1 end
  end
end
if wait >= 0 then return {0, wait, full} end
for i, key in ipairs(KEYS) do
  redis.call('SET', key, '0', 'PX', tonumber(ARGV[n + i + 1]) or tonumber(ARGV[1]), 'NX')
  redis.call('INCR', key)
end
return {1, 0, 0}
`;

// Takes one back from KEYS[1] while it exists and is above zero (its TTL stays).
const RELEASE_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 0
`;

/** An {@link AttemptCounter} on Redis (`redis://host:port/db?prefix=login-limit:`). */
export class RedisAttemptCounter implements AttemptCounter {
  readonly #client: Redis;
  readonly #prefix: string;

  /** `outage` (koa-host's `outageLog`) hears of the connection's failures and recoveries. */
  constructor(url: string, options: { prefix?: string; outage?: OutageLog } = {}) {
    const parsed = new URL(url);
    this.#prefix = options.prefix ?? parsed.searchParams.get("prefix") ?? "login-limit:";
    parsed.searchParams.delete("prefix");
    // ioredis is an optional peer dependency: loaded here, or E_SECURITY_DRIVER_MISSING naming it.
    const { Redis } = requireDriver<typeof import("ioredis")>("ioredis", "Redis login limiter");
    this.#client = new Redis(parsed.toString(), failFastRedisOptions());
    // Also keeps ioredis from reporting every reconnect failure as an unhandled error event.
    if (options.outage) watchConnection(this.#client, options.outage);
    else this.#client.on("error", () => undefined);
  }

  async take(limits: readonly CounterLimit[], windowMs: number): Promise<TakeResult> {
    const keys = limits.map(({ key }) => this.#prefix + key);
    const [allowed, wait, full] = (await this.#client.eval(
      TAKE_SCRIPT,
      keys.length,
      ...keys,
      String(windowMs),
      ...limits.map(({ limit }) => String(limit)),
      ...limits.map(({ windowMs: own }) => (own === undefined ? "" : String(own))),
    )) as [number, number, number];
    return allowed === 1
      ? { allowed: true, resetAt: 0 }
      : { allowed: false, resetAt: Date.now() + Math.max(1, Number(wait)), refusedBy: Number(full) };
  }

  async release(key: string): Promise<void> {
    await this.#client.eval(RELEASE_SCRIPT, 1, this.#prefix + key);
  }

  async reset(key: string): Promise<void> {
    await this.#client.del(this.#prefix + key);
  }

  async close(): Promise<void> {
    try {
      await this.#client.quit();
    } catch {
      this.#client.disconnect();
    }
  }
}

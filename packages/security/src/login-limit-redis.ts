/**
 * Failed-login counters in Redis, so the limits hold across every process of the app. Each
 * counter is one key with a TTL equal to the window.
 */
import type { Redis } from "ioredis";
import { watchConnection, type OutageLog } from "@fwkit/koa-host/plugin";
import type { AttemptCount, AttemptCounter } from "./login-limit.js";
import { requireDriver } from "./drivers.js";
import { failFastRedisOptions } from "./stores/redis.js";

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

  async hit(key: string, windowMs: number): Promise<AttemptCount> {
    const k = this.#prefix + key;
    const result = await this.#client.multi().set(k, "0", "PX", windowMs, "NX").incr(k).pttl(k).exec();
    if (!result) throw new Error("the Redis transaction was aborted");
    for (const [error] of result) if (error) throw error;
    const count = Number(result[1]![1]);
    const ttl = Number(result[2]![1]);
    return { count, resetAt: Date.now() + (ttl > 0 ? ttl : windowMs) };
  }

  async peek(key: string): Promise<AttemptCount | undefined> {
    const k = this.#prefix + key;
    const result = await this.#client.multi().get(k).pttl(k).exec();
    if (!result) throw new Error("the Redis transaction was aborted");
    for (const [error] of result) if (error) throw error;
    const value = result[0]![1];
    const ttl = Number(result[1]![1]);
    if (value === null || ttl <= 0) return undefined;
    return { count: Number(value), resetAt: Date.now() + ttl };
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

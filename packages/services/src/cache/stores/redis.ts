import type { OutageLog } from "@fwkit/battery-kit";
import type { Redis } from "ioredis";
import { E_SERVICE_UNREACHABLE } from "../../errors.js";
import { closeRedis } from "../../redis.js";
import type { CacheStore } from "../store.js";

// Redis answered with an error (a wrong type, a script error): a bug to report, not an outage.
function isReply(error: unknown): boolean {
  return (error as Error | undefined)?.name === "ReplyError";
}

/**
 * A cache in Redis, shared by every process of the app; Redis expires the entries. While Redis is
 * down (no connection, or no answer within the connection's command timeout) a read is a miss and a
 * write is dropped: the page is served without its cached copy instead of waiting for Redis or
 * answering 503. Such failures go to `outage` (one line when it starts, not one per request); a
 * delete still fails (`E_SERVICE_UNREACHABLE`, 503), since a lost invalidation would serve stale data
 * once Redis is back.
 */
export class RedisStore implements CacheStore {
  readonly kind = "redis";
  /** The connection (exposed for inspection). */
  readonly client: Redis;
  readonly #outage: OutageLog | undefined;

  constructor(client: Redis, outage?: OutageLog) {
    this.client = client;
    this.#outage = outage;
  }

  // While Redis is down a request that needs the cache answers 503 (E_SERVICE_UNREACHABLE), not
  // 500: the outage is the server's, temporary, and says so to clients and balancers.
  #unreachable(error: unknown): Error {
    const { host, port } = this.client.options;
    return new E_SERVICE_UNREACHABLE(
      "cache",
      `redis://${host ?? "127.0.0.1"}:${port ?? 6379}`,
      (error as Error)?.message ?? String(error),
    );
  }

  // A command that worked ends an outage the connection itself never saw (Redis paused, not gone).
  #answered(): void {
    if (this.#outage?.down) this.#outage.recovered();
  }

  // A failed read or write: an outage is logged and the caller goes on without the cache.
  #skip(error: unknown): void {
    if (isReply(error)) throw this.#unreachable(error);
    if (this.#outage) this.#outage.failed(error);
    else throw this.#unreachable(error);
  }

  async get(key: string): Promise<string | undefined> {
    try {
      const value = await this.client.get(key);
      this.#answered();
      return value ?? undefined;
    } catch (error) {
      this.#skip(error);
      return undefined;
    }
  }

  async set(key: string, value: string, ttlMs: number | undefined): Promise<void> {
    try {
      if (ttlMs === undefined) await this.client.set(key, value);
      else await this.client.set(key, value, "PX", Math.max(1, Math.ceil(ttlMs)));
      this.#answered();
    } catch (error) {
      this.#skip(error);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.del(key);
      this.#answered();
    } catch (error) {
      throw this.#unreachable(error);
    }
  }

  async check(): Promise<void> {
    try {
      await this.client.ping();
      this.#answered();
    } catch (error) {
      throw this.#unreachable(error);
    }
  }

  close(): Promise<void> {
    return closeRedis(this.client);
  }
}

import type { Redis } from "ioredis";
import { E_SERVICE_UNREACHABLE } from "../../errors.js";
import { closeRedis } from "../../redis.js";
import type { CacheStore } from "../store.js";

/** A cache in Redis, shared by every process of the app; Redis expires the entries. */
export class RedisStore implements CacheStore {
  readonly kind = "redis";
  /** The connection (exposed for inspection). */
  readonly client: Redis;

  constructor(client: Redis) {
    this.client = client;
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

  async get(key: string): Promise<string | undefined> {
    try {
      return (await this.client.get(key)) ?? undefined;
    } catch (error) {
      throw this.#unreachable(error);
    }
  }

  async set(key: string, value: string, ttlMs: number | undefined): Promise<void> {
    try {
      if (ttlMs === undefined) await this.client.set(key, value);
      else await this.client.set(key, value, "PX", Math.max(1, Math.ceil(ttlMs)));
    } catch (error) {
      throw this.#unreachable(error);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.del(key);
    } catch (error) {
      throw this.#unreachable(error);
    }
  }

  close(): Promise<void> {
    return closeRedis(this.client);
  }
}

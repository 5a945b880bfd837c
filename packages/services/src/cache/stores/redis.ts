import type { Redis } from "ioredis";
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

  async get(key: string): Promise<string | undefined> {
    return (await this.client.get(key)) ?? undefined;
  }

  async set(key: string, value: string, ttlMs: number | undefined): Promise<void> {
    if (ttlMs === undefined) await this.client.set(key, value);
    else await this.client.set(key, value, "PX", Math.max(1, Math.ceil(ttlMs)));
  }

  async delete(key: string): Promise<void> {
    await this.client.del(key);
  }

  close(): Promise<void> {
    return closeRedis(this.client);
  }
}

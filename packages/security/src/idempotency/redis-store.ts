/**
 * Idempotency keys in Redis (`redis://host:port/db?prefix=idempotency:`), shared by every process
 * of every node, so a retry that a balancer or client sends to another process finds the key.
 * The claim is one `SET NX PX`: of two attempts that arrive together exactly one runs.
 */
import type { Redis } from "ioredis";
import { watchConnection, type OutageLog } from "@fwkit/battery-kit";
import { requireDriver } from "../drivers.js";
import { failFastRedisOptions } from "../stores/redis.js";
import type { IdempotencyRecord, IdempotencyStore } from "./store.js";

/** A Redis store of idempotency keys; each key is one string with a millisecond TTL. */
export class RedisIdempotencyStore implements IdempotencyStore {
  readonly kind = "redis";
  readonly #client: Redis;
  readonly #prefix: string;

  /** `prefix` wins over the URL's `?prefix=` (default `idempotency:`); `outage` hears of connection failures. */
  constructor(url: string, options: { prefix?: string; outage?: OutageLog } = {}) {
    const parsed = new URL(url);
    this.#prefix = options.prefix ?? parsed.searchParams.get("prefix") ?? "idempotency:";
    parsed.searchParams.delete("prefix");
    // ioredis is an optional peer dependency: loaded here, or E_SECURITY_DRIVER_MISSING naming it.
    const { Redis } = requireDriver<typeof import("ioredis")>("ioredis", "Redis idempotency keys");
    this.#client = new Redis(parsed.toString(), failFastRedisOptions());
    if (options.outage) watchConnection(this.#client, options.outage);
    else this.#client.on("error", () => undefined);
  }

  async claim(key: string, record: IdempotencyRecord, ttlMs: number): Promise<IdempotencyRecord | undefined> {
    const name = this.#prefix + key;
    // Twice at most: a key that expires between the failed claim and the read is claimed again.
    for (let attempt = 0; attempt < 2; attempt++) {
      const set = await this.#client.set(name, JSON.stringify(record), "PX", Math.max(1, ttlMs), "NX");
      if (set === "OK") return undefined;
      const raw = await this.#client.get(name);
      if (raw !== null) return JSON.parse(raw) as IdempotencyRecord;
    }
    return JSON.parse((await this.#client.get(name)) ?? JSON.stringify(record)) as IdempotencyRecord;
  }

  async complete(key: string, record: IdempotencyRecord, ttlMs: number): Promise<void> {
    await this.#client.set(this.#prefix + key, JSON.stringify(record), "PX", Math.max(1, ttlMs));
  }

  async release(key: string): Promise<void> {
    await this.#client.del(this.#prefix + key);
  }

  async close(): Promise<void> {
    try {
      await Promise.race([this.#client.quit(), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
    } catch {
      // Already closed.
    }
    this.#client.disconnect();
  }
}

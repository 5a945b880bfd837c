/**
 * Sessions in Redis (`redis://host:port/db?prefix=sess:`): shared by every process of the app,
 * expired by Redis itself (each key carries a TTL), so `sweep()` has nothing to do.
 */
import type { Redis } from "ioredis";
import { requireDriver } from "../drivers.js";
import { parseSessionData, type SessionData, type SessionStore } from "./store.js";

/** Options of {@link RedisSessionStore}. */
export interface RedisSessionStoreOptions {
  /** A `redis://` or `rediss://` URL. */
  readonly url: string;
  /** Key prefix (default `sess:`). */
  readonly prefix?: string;
  /** Called when the connection fails (throttled by ioredis' reconnect delay). */
  readonly onConnectionError?: (error: Error) => void;
}

/** Options that make a command fail fast while Redis is down instead of queueing for long. */
export function failFastRedisOptions(): Record<string, unknown> {
  return {
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 2000,
    enableOfflineQueue: true,
    retryStrategy: (attempt: number) => Math.min(attempt * 100, 1000),
  };
}

/** A Redis session store; every session is one string key with a millisecond TTL. */
export class RedisSessionStore implements SessionStore {
  readonly kind = "redis";
  readonly #client: Redis;
  readonly #prefix: string;

  constructor(options: RedisSessionStoreOptions) {
    this.#prefix = options.prefix ?? "sess:";
    // ioredis is an optional peer dependency: loaded here, or E_SECURITY_DRIVER_MISSING naming it.
    const { Redis } = requireDriver<typeof import("ioredis")>("ioredis", "Redis session store");
    // Auto-pipelining: the session reads of requests that arrive in the same tick leave in one write
    // and come back in one read (fewer system calls per request under load).
    this.#client = new Redis(options.url, {
      ...failFastRedisOptions(),
      lazyConnect: false,
      enableAutoPipelining: true,
    });
    // Without a listener ioredis reports every reconnect failure as an unhandled error event.
    this.#client.on("error", (error: Error) => options.onConnectionError?.(error));
  }

  async get(id: string): Promise<SessionData | undefined> {
    const text = await this.#client.get(this.#prefix + id);
    return text === null ? undefined : parseSessionData(text);
  }

  async set(id: string, data: SessionData, expiresAt: number): Promise<void> {
    const ttl = Math.max(1, Math.ceil(expiresAt - Date.now()));
    await this.#client.set(this.#prefix + id, JSON.stringify(data), "PX", ttl);
  }

  async destroy(id: string): Promise<void> {
    await this.#client.del(this.#prefix + id);
  }

  async sweep(): Promise<number> {
    return 0;
  }

  async close(): Promise<void> {
    try {
      await this.#client.quit();
    } catch {
      this.#client.disconnect();
    }
  }
}

import type { OutageLog } from "@fwkit/battery-kit";
import { E_CACHE_TTL_INVALID, E_CACHE_VALUE_INVALID, E_SERVICE_URL_INVALID } from "../errors.js";
import { consoleLogger, type ServiceLogger } from "../logger.js";
import { connectRedis, redisOutageLog } from "../redis.js";
import { redactUrl, tryParseUrl } from "../urls.js";
import type { CacheStore } from "./store.js";
import { MemoryStore } from "./stores/memory.js";
import { RedisStore } from "./stores/redis.js";

/** The default `cacheUrl`: memory of this process. */
export const DEFAULT_CACHE_URL = "memory://";

/** JSON values with TTLs, in memory or Redis. */
export interface Cache {
  /** The store behind the cache. */
  readonly store: CacheStore;
  /** Prefix put before every key (`cache:` by default, `?prefix=` in the URL). */
  readonly prefix: string;
  /** The stored value, or `undefined` when absent or expired. */
  get<T>(key: string): Promise<T | undefined>;
  /** Stores a JSON-compatible value, for `ttlSeconds` (fractions allowed) or until deleted. */
  set(key: string, value: unknown, ttlSeconds?: number): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * The cached value, or else `compute()`'s result stored for `ttlSeconds`. Concurrent calls for
   * one key in this process share one computation. `undefined` results are returned, not stored.
   */
  remember<T>(key: string, ttlSeconds: number, compute: () => T | Promise<T>): Promise<T>;
  /** Releases the Redis connection. */
  close(): Promise<void>;
  /**
   * The log of the store's outages (Redis caches): the response cache reports its failed reads
   * and writes here, so an outage is logged once, not per request.
   */
  readonly outage?: OutageLog;
}

/** Options of {@link createCache}. */
export interface CacheOptions {
  /** Reports Redis connection errors (default: stderr). */
  readonly logger?: ServiceLogger;
}

/** Throws `E_CACHE_TTL_INVALID` unless `seconds` is a positive finite number; returns milliseconds. */
export function ttlMs(where: string, seconds: number | undefined): number | undefined {
  if (seconds === undefined) return undefined;
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds <= 0) {
    throw new E_CACHE_TTL_INVALID(where, String(seconds));
  }
  return seconds * 1000;
}

/** Wraps a store with JSON values, key prefixing and single-flight `remember`. */
export function cacheOver(store: CacheStore, prefix = "cache:", outage?: OutageLog): Cache {
  const inflight = new Map<string, Promise<unknown>>();
  const cache: Cache = {
    store,
    prefix,
    async get<T>(key: string) {
      const raw = await store.get(prefix + key);
      // Values are wrapped so that a stored `null` is told apart from a miss.
      return raw === undefined ? undefined : (JSON.parse(raw) as { v: T }).v;
    },
    async set(key, value, ttlSeconds) {
      const ttl = ttlMs(`cache.set("${key}")`, ttlSeconds);
      if (value === undefined)
        throw new E_CACHE_VALUE_INVALID(key, "undefined cannot be stored (delete the key instead)");
      let raw: string;
      try {
        raw = JSON.stringify({ v: value });
      } catch (error) {
        throw new E_CACHE_VALUE_INVALID(key, (error as Error).message);
      }
      await store.set(prefix + key, raw, ttl);
    },
    delete: (key) => store.delete(prefix + key),
    async remember<T>(key: string, ttlSeconds: number, compute: () => T | Promise<T>): Promise<T> {
      ttlMs(`cache.remember("${key}")`, ttlSeconds);
      const hit = await cache.get<T>(key);
      if (hit !== undefined) return hit;
      const running = inflight.get(key);
      if (running) return running as Promise<T>;
      const computation = (async () => {
        try {
          const value = await compute();
          if (value !== undefined) await cache.set(key, value, ttlSeconds);
          return value;
        } finally {
          inflight.delete(key);
        }
      })();
      inflight.set(key, computation);
      return computation;
    },
    close: () => store.close(),
    ...(outage ? { outage } : {}),
  };
  return cache;
}

/**
 * Builds a cache from one URL: `memory://` (default; `?max=` entries, 10,000 by default) or
 * `redis://[:password@]host:port/db` / `rediss://...`; both take `?prefix=` (default `cache:`).
 * A Redis that does not answer fails here, at start-up; later, while it is down, reads are misses
 * and writes are dropped (logged once per outage), and deletes fail with `E_SERVICE_UNREACHABLE`.
 */
export async function createCache(url: string = DEFAULT_CACHE_URL, options: CacheOptions = {}): Promise<Cache> {
  const parsed = tryParseUrl(url);
  const invalid = (reason: string) => new E_SERVICE_URL_INVALID("cacheUrl", redactUrl(url), reason);
  if (!parsed) throw invalid("it is not a URL");
  const prefix = parsed.searchParams.get("prefix") ?? "cache:";
  parsed.searchParams.delete("prefix");
  if (parsed.protocol === "memory:") {
    const max = parsed.searchParams.get("max");
    parsed.searchParams.delete("max");
    for (const key of parsed.searchParams.keys())
      throw invalid(`the query "${key}" is not understood (known: max, prefix)`);
    if (max !== null && !/^[1-9]\d*$/.test(max)) throw invalid("max must be a positive whole number of entries");
    return cacheOver(new MemoryStore(max === null ? undefined : Number(max)), prefix);
  }
  if (parsed.protocol === "redis:" || parsed.protocol === "rediss:") {
    const logger = options.logger ?? consoleLogger;
    const outage = redisOutageLog(parsed.toString(), "cache", logger);
    // Fail fast: a read while Redis is down is a miss at once, not a wait for the reconnect.
    const client = await connectRedis(parsed.toString(), "cache", logger, outage, { failFast: true });
    return cacheOver(new RedisStore(client, outage), prefix, outage);
  }
  throw invalid("use memory:// or redis://host:port");
}

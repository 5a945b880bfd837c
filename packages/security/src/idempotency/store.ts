/**
 * Where idempotency keys live: in the process's memory (development, one process) or in Redis
 * (every process of every node). A key is claimed atomically by the first request that carries
 * it; its record then holds that request's answer until the key expires.
 */

/** A response as kept for replay. */
export interface StoredResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[]>>;
  /** Base64 of the body bytes; null when the body was a stream (not kept). */
  readonly body: string | null;
}

/** What a key holds: the request it was first used for, and its answer once there is one. */
export interface IdempotencyRecord {
  /** `running` from the claim until the answer is stored. */
  readonly state: "running" | "done";
  /** The fingerprint of the request that claimed the key (method, path, body). */
  readonly fingerprint: string;
  /** The answer, once `done`. */
  readonly response?: StoredResponse;
}

/** A store of idempotency keys. */
export interface IdempotencyStore {
  /** `memory` or `redis`. */
  readonly kind: string;
  /**
   * Claims `key` with `record` for `ttlMs` unless it exists: undefined when this call claimed
   * it, else the record already there.
   */
  claim(key: string, record: IdempotencyRecord, ttlMs: number): Promise<IdempotencyRecord | undefined>;
  /** Replaces the claimed key's record with its answer, for `ttlMs` from now. */
  complete(key: string, record: IdempotencyRecord, ttlMs: number): Promise<void>;
  /** Forgets a claimed key (its request failed and changed nothing: a retry may run it). */
  release(key: string): Promise<void>;
  /** Releases connections. */
  close(): Promise<void>;
}

/** The most keys the memory store keeps; the oldest go first beyond it. */
const MEMORY_MAX = 10_000;

/** Keys in this process's memory: enough for development and an app of one process. */
export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly kind = "memory";
  readonly #entries = new Map<string, { record: IdempotencyRecord; expires: number }>();

  #live(key: string): IdempotencyRecord | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= Date.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.record;
  }

  #put(key: string, record: IdempotencyRecord, ttlMs: number): void {
    this.#entries.delete(key);
    this.#entries.set(key, { record, expires: Date.now() + ttlMs });
    // A Map keeps insertion order: the first entries are the oldest.
    while (this.#entries.size > MEMORY_MAX) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  async claim(key: string, record: IdempotencyRecord, ttlMs: number): Promise<IdempotencyRecord | undefined> {
    const found = this.#live(key);
    if (found) return found;
    this.#put(key, record, ttlMs);
    return undefined;
  }

  async complete(key: string, record: IdempotencyRecord, ttlMs: number): Promise<void> {
    this.#put(key, record, ttlMs);
  }

  async release(key: string): Promise<void> {
    this.#entries.delete(key);
  }

  async close(): Promise<void> {
    this.#entries.clear();
  }
}

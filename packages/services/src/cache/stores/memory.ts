import type { CacheStore } from "../store.js";

interface Entry {
  readonly value: string;
  readonly expiresAt: number;
}

/**
 * A cache in this process's memory, bounded to `maxEntries` (the oldest written goes first).
 * Each process has its own: use Redis when several processes must share entries.
 */
export class MemoryStore implements CacheStore {
  readonly kind = "memory";
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;

  constructor(maxEntries = 10_000) {
    this.#maxEntries = maxEntries;
  }

  async get(key: string): Promise<string | undefined> {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  async set(key: string, value: string, ttlMs: number | undefined): Promise<void> {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: ttlMs === undefined ? Infinity : Date.now() + ttlMs });
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  async delete(key: string): Promise<void> {
    this.#entries.delete(key);
  }

  /** How many entries are held (expired ones included until read). */
  get size(): number {
    return this.#entries.size;
  }

  async close(): Promise<void> {
    this.#entries.clear();
  }
}

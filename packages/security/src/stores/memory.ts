/**
 * Sessions in this process's memory (`memory:`): for development and single-process apps only,
 * since other processes cannot see them and a restart loses them.
 */
import type { SessionData, SessionStore } from "./store.js";

/** An in-process session store; expired entries are dropped on read and by `sweep()`. */
export class MemorySessionStore implements SessionStore {
  readonly kind = "memory";
  readonly #entries = new Map<string, { json: string; expiresAt: number }>();

  async get(id: string): Promise<SessionData | undefined> {
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.#entries.delete(id);
      return undefined;
    }
    return JSON.parse(entry.json) as SessionData;
  }

  async set(id: string, data: SessionData, expiresAt: number): Promise<void> {
    // Stored as JSON so a caller mutating its object later cannot change the stored session.
    this.#entries.set(id, { json: JSON.stringify(data), expiresAt });
  }

  async destroy(id: string): Promise<void> {
    this.#entries.delete(id);
  }

  async sweep(): Promise<number> {
    const now = Date.now();
    let removed = 0;
    for (const [id, entry] of this.#entries) {
      if (entry.expiresAt <= now) {
        this.#entries.delete(id);
        removed++;
      }
    }
    return removed;
  }

  /** True when `id` is held, expired or not (a raw look, for tests). */
  has(id: string): boolean {
    return this.#entries.has(id);
  }

  /** How many sessions are held, expired or not (for tests and metrics). */
  get size(): number {
    return this.#entries.size;
  }

  async close(): Promise<void> {
    this.#entries.clear();
  }
}

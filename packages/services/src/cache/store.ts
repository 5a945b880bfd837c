/**
 * Where cache entries live: process memory or Redis. Values are strings (the cache serialises);
 * a store expires entries itself after `ttlMs`.
 */
export interface CacheStore {
  /** `memory` or `redis`. */
  readonly kind: string;
  /** The value, or `undefined` when absent or expired. */
  get(key: string): Promise<string | undefined>;
  /** Stores a value, for `ttlMs` milliseconds or until deleted when `undefined`. */
  set(key: string, value: string, ttlMs: number | undefined): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * Throws when the backend does not answer (readiness). A store that cannot be down (memory)
   * has none.
   */
  check?(): Promise<void>;
  /** Releases connections. */
  close(): Promise<void>;
}

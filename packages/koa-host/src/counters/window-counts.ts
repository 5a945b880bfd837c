/**
 * Fixed-window counters in one process's memory, with the one rule every attempt counter follows
 * (the login limiter's, the rate limiter's, the cluster primary's for its workers): checking the
 * limits and counting is one synchronous step, so parallel callers never all see the same count.
 */

/** One counter and its limit, for {@link WindowCounts.take}. */
export interface CounterLimit {
  readonly key: string;
  /** The most the counter may reach within its window. */
  readonly limit: number;
}

/** What {@link WindowCounts.take} answers. */
export interface TakeResult {
  /** True when every counter was under its limit and each was counted once. */
  readonly allowed: boolean;
  /** Refused: when the last full counter's window ends (epoch ms); allowed: 0. */
  readonly resetAt: number;
}

/** One counter's state. */
export interface WindowCount {
  readonly count: number;
  /** When the window of this counter ends (epoch ms). */
  readonly resetAt: number;
}

/** Counters with fixed windows, bounded so that random keys (account names) cannot exhaust memory. */
export class WindowCounts {
  readonly #counts = new Map<string, { count: number; resetAt: number }>();
  readonly #maxKeys: number;

  constructor(maxKeys = 100_000) {
    this.#maxKeys = maxKeys;
  }

  /**
   * When every counter is below its limit, adds one to each (opening a window of `windowMs` where
   * none is open) and allows; else changes nothing and refuses with the time the wait ends.
   */
  take(limits: readonly CounterLimit[], windowMs: number, now = Date.now()): TakeResult {
    let resetAt = 0;
    for (const { key, limit } of limits) {
      const entry = this.#counts.get(key);
      if (entry && entry.resetAt > now && entry.count >= limit) resetAt = Math.max(resetAt, entry.resetAt);
    }
    if (resetAt > 0) return { allowed: false, resetAt };
    if (this.#counts.size + limits.length > this.#maxKeys) this.#prune(now, limits.length);
    for (const { key } of limits) {
      let entry = this.#counts.get(key);
      if (!entry || entry.resetAt <= now) {
        entry = { count: 0, resetAt: now + windowMs };
        this.#counts.set(key, entry);
      }
      entry.count++;
    }
    return { allowed: true, resetAt: 0 };
  }

  /** Adds one to `key` whatever its count (a failure to remember), opening a window if none is open. */
  hit(key: string, windowMs: number, now = Date.now()): WindowCount {
    let entry = this.#counts.get(key);
    if (!entry || entry.resetAt <= now) {
      if (this.#counts.size >= this.#maxKeys) this.#prune(now, 1);
      entry = { count: 0, resetAt: now + windowMs };
      this.#counts.set(key, entry);
    }
    entry.count++;
    return { ...entry };
  }

  /** The current count, or `undefined` when no window is open. */
  peek(key: string, now = Date.now()): WindowCount | undefined {
    const entry = this.#counts.get(key);
    return entry && entry.resetAt > now ? { ...entry } : undefined;
  }

  /** Takes one back from `key` (never below zero). */
  release(key: string): void {
    const entry = this.#counts.get(key);
    if (entry && entry.count > 0) entry.count--;
  }

  /** Forgets `key`. */
  reset(key: string): void {
    this.#counts.delete(key);
  }

  /** Forgets every counter. */
  clear(): void {
    this.#counts.clear();
  }

  /** Drops the counters whose window has ended. */
  sweep(now = Date.now()): void {
    for (const [key, entry] of this.#counts) if (entry.resetAt <= now) this.#counts.delete(key);
  }

  #prune(now: number, room: number): void {
    this.sweep(now);
    // Still full of live windows: drop the oldest (Map keeps insertion order).
    for (const key of this.#counts.keys()) {
      if (this.#counts.size + room <= this.#maxKeys) break;
      this.#counts.delete(key);
    }
  }
}

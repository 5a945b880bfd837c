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
  /** This counter's window in ms when it differs from the one `take` is given (limits of several windows taken together). */
  readonly windowMs?: number;
}

/** What {@link WindowCounts.take} answers. */
export interface TakeResult {
  /** True when every counter was under its limit and each was counted once. */
  readonly allowed: boolean;
  /** Refused: when the last full counter's window ends (epoch ms); allowed: 0. */
  readonly resetAt: number;
  /** Refused: the index in `limits` of a counter that was full (none when the table itself was full). */
  readonly refusedBy?: number;
}

/** One counter's state. */
export interface WindowCount {
  readonly count: number;
  /** When the window of this counter ends (epoch ms). */
  readonly resetAt: number;
}

/**
 * Counters with fixed windows, bounded so that random keys (account names) cannot exhaust memory.
 * A full table never drops a live window (that would lift a lockout): it drops ended windows and
 * windows counted back to zero, and when every one left is live it refuses new counters until one
 * ends. Limits fail closed.
 */
export class WindowCounts {
  readonly #counts = new Map<string, { count: number; resetAt: number }>();
  readonly #maxKeys: number;
  /** While the table is full of live windows: when the first ends (a refusal needs no new scan until then). */
  #fullUntil = 0;
  /** A counter went back to zero or was forgotten since the table was last found full. */
  #freed = false;

  constructor(maxKeys = 100_000) {
    this.#maxKeys = maxKeys;
  }

  /** How many counters the table holds (ended ones included until swept). */
  get size(): number {
    return this.#counts.size;
  }

  /**
   * When every counter is below its limit, adds one to each (opening a window of its `windowMs`, else
   * `windowMs`, where none is open) and allows; else changes nothing and refuses with the time the
   * wait ends. Also refuses, changing nothing, when the table has no room for the new counters.
   */
  take(limits: readonly CounterLimit[], windowMs: number, now = Date.now()): TakeResult {
    let resetAt = 0;
    let refusedBy: number | undefined;
    let fresh = 0;
    for (const [index, { key, limit }] of limits.entries()) {
      const entry = this.#counts.get(key);
      const live = entry !== undefined && entry.resetAt > now;
      if (!live) fresh++;
      else if (entry.count >= limit && entry.resetAt > resetAt) {
        resetAt = entry.resetAt;
        refusedBy = index;
      }
    }
    if (resetAt > 0) return { allowed: false, resetAt, ...(refusedBy !== undefined ? { refusedBy } : {}) };
    if (fresh > 0 && this.#counts.size + fresh > this.#maxKeys) {
      const wait = this.#makeRoom(now, fresh);
      if (wait > 0) return { allowed: false, resetAt: wait };
    }
    for (const { key, windowMs: own } of limits) {
      let entry = this.#counts.get(key);
      if (!entry || entry.resetAt <= now) {
        entry = { count: 0, resetAt: now + (own ?? windowMs) };
        // Deleted first, so the Map's order stays the order windows opened.
        this.#counts.delete(key);
        this.#counts.set(key, entry);
      }
      entry.count++;
    }
    return { allowed: true, resetAt: 0 };
  }

  /**
   * Adds one to `key` whatever its count (a failure to remember), opening a window if none is open.
   * When the table is full of live windows nothing is counted and the answer is a count no limit
   * allows (the caller refuses: limits fail closed).
   */
  hit(key: string, windowMs: number, now = Date.now()): WindowCount {
    let entry = this.#counts.get(key);
    if (!entry || entry.resetAt <= now) {
      if (this.#counts.size >= this.#maxKeys) {
        const wait = this.#makeRoom(now, 1);
        if (wait > 0) return { count: Number.MAX_SAFE_INTEGER, resetAt: wait };
      }
      entry = { count: 0, resetAt: now + windowMs };
      this.#counts.delete(key);
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
    if (entry && entry.count > 0 && --entry.count === 0) this.#freed = true;
  }

  /** Forgets `key`. */
  reset(key: string): void {
    if (this.#counts.delete(key)) this.#freed = true;
  }

  /** Forgets every counter. */
  clear(): void {
    this.#counts.clear();
    this.#fullUntil = 0;
  }

  /** Drops the counters whose window has ended. */
  sweep(now = Date.now()): void {
    for (const [key, entry] of this.#counts) if (entry.resetAt <= now) this.#counts.delete(key);
  }

  /**
   * Frees `room` places by dropping ended windows, then live windows counted back to zero (they
   * limit nothing); 0 when it did, else when the first live window ends (the wait of a refusal).
   */
  #makeRoom(now: number, room: number): number {
    // Found full of live windows before, and nothing ended or was freed since: a flood costs no scans.
    if (now < this.#fullUntil && !this.#freed) return this.#fullUntil;
    this.#freed = false;
    this.sweep(now);
    for (const [key, entry] of this.#counts) {
      if (this.#counts.size + room <= this.#maxKeys) break;
      if (entry.count === 0) this.#counts.delete(key);
    }
    if (this.#counts.size + room <= this.#maxKeys) return 0;
    let first = Number.POSITIVE_INFINITY;
    for (const entry of this.#counts.values()) if (entry.resetAt < first) first = entry.resetAt;
    this.#fullUntil = Math.max(first, now + 1);
    return this.#fullUntil;
  }
}

/**
 * The per-client subscription limit: a fixed window per client address, kept in the process (a
 * client's stream stays on one node, and a balancer spreads a flood over nodes that each refuse).
 */

/** Counts subscriptions per key; `take` answers the seconds to wait when over the limit. */
export class SubscribeRate {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts `amount` subscriptions of `key`; 0 when allowed, else the seconds until the window ends. */
  take(key: string, amount: number, now = Date.now()): number {
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    if (window.count + amount > this.limit) return Math.max(1, Math.ceil((window.resetAt - now) / 1000));
    window.count += amount;
    return 0;
  }

  /** Forgets the windows that are over, so the map holds only recent clients. */
  sweep(now = Date.now()): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

/**
 * Limits failed logins per account and per client address within a time window: after the limit,
 * attempts are refused with 429 and `Retry-After` until the window ends, before the password is
 * even checked. Each attempt is counted in one atomic step before its password is checked, so a
 * burst of parallel attempts cannot all pass a read made before any of them was counted. Counters
 * live in memory by default, shared by the workers of `start --workers` through the cluster
 * primary, or in Redis so every process of every node shares them.
 */
import { createHash } from "node:crypto";
import { isIP } from "node:net";
import { markOutageReported, type OutageLog } from "@fwkit/koa-host/plugin";
import { E_LOGIN_LIMIT_UNAVAILABLE, E_TOO_MANY_LOGIN_ATTEMPTS, withHeaders } from "./errors.js";

/** One counter's state. */
export interface AttemptCount {
  readonly count: number;
  /** When the window of this counter ends (epoch ms). */
  readonly resetAt: number;
}

/** One counter and its limit, for {@link AttemptCounter.take}. */
export interface CounterLimit {
  readonly key: string;
  /** The most the counter may reach within its window. */
  readonly limit: number;
}

/** What {@link AttemptCounter.take} answers. */
export interface TakeResult {
  /** True when every counter was under its limit and each was counted once. */
  readonly allowed: boolean;
  /** Refused: when the last full counter's window ends (epoch ms); allowed: 0. */
  readonly resetAt: number;
}

/** Where attempt counters live (memory, the cluster primary, or Redis). */
export interface AttemptCounter {
  /**
   * One atomic step: when every counter is below its limit, adds one to each (opening a window of
   * `windowMs` where none is open) and allows; else changes nothing and refuses. Parallel callers
   * can never all see the same count.
   */
  take(limits: readonly CounterLimit[], windowMs: number): Promise<TakeResult>;
  /** Takes one back from `key` (never below zero), for an attempt that must not count. */
  release(key: string): Promise<void>;
  /** Forgets `key`. */
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * {@link AttemptCounter.take} on a map of live windows, synchronous so that it is atomic within
 * one process (shared with the cluster primary's counter service).
 */
export function takeFromMap(
  counts: Map<string, { count: number; resetAt: number }>,
  limits: readonly CounterLimit[],
  windowMs: number,
  now = Date.now(),
): TakeResult {
  let resetAt = 0;
  for (const { key, limit } of limits) {
    const entry = counts.get(key);
    if (entry && entry.resetAt > now && entry.count >= limit) resetAt = Math.max(resetAt, entry.resetAt);
  }
  if (resetAt > 0) return { allowed: false, resetAt };
  for (const { key } of limits) {
    let entry = counts.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + windowMs };
      counts.set(key, entry);
    }
    entry.count++;
  }
  return { allowed: true, resetAt: 0 };
}

/** Counters in this process's memory; bounded so that random account names cannot exhaust it. */
export class MemoryAttemptCounter implements AttemptCounter {
  readonly #counts = new Map<string, { count: number; resetAt: number }>();
  readonly #maxKeys: number;

  constructor(maxKeys = 100_000) {
    this.#maxKeys = maxKeys;
  }

  async hit(key: string, windowMs: number): Promise<AttemptCount> {
    const now = Date.now();
    let entry = this.#counts.get(key);
    if (!entry || entry.resetAt <= now) {
      if (this.#counts.size >= this.#maxKeys) this.#prune(now, 1);
      entry = { count: 0, resetAt: now + windowMs };
      this.#counts.set(key, entry);
    }
    entry.count++;
    return { ...entry };
  }

  async peek(key: string): Promise<AttemptCount | undefined> {
    const entry = this.#counts.get(key);
    return entry && entry.resetAt > Date.now() ? { ...entry } : undefined;
  }

  async take(limits: readonly CounterLimit[], windowMs: number): Promise<TakeResult> {
    const now = Date.now();
    if (this.#counts.size + limits.length > this.#maxKeys) this.#prune(now, limits.length);
    return takeFromMap(this.#counts, limits, windowMs, now);
  }

  async release(key: string): Promise<void> {
    const entry = this.#counts.get(key);
    if (entry && entry.count > 0) entry.count--;
  }

  async reset(key: string): Promise<void> {
    this.#counts.delete(key);
  }

  async close(): Promise<void> {
    this.#counts.clear();
  }

  #prune(now: number, room: number): void {
    for (const [key, entry] of this.#counts) if (entry.resetAt <= now) this.#counts.delete(key);
    // Still full of live windows: drop the oldest (Map keeps insertion order).
    for (const key of this.#counts.keys()) {
      if (this.#counts.size + room <= this.#maxKeys) break;
      this.#counts.delete(key);
    }
  }
}

/**
 * An identifier as typed, made comparable: Unicode NFKC (full-width and compatibility forms fold
 * to plain ones), trimmed, lower-cased. Not text (a JSON body may send anything): its JSON form.
 */
export function normaliseIdentifier(identifier: unknown): string {
  const text = typeof identifier === "string" ? identifier : (JSON.stringify(identifier) ?? "");
  return text.normalize("NFKC").trim().toLowerCase().normalize("NFKC");
}

/**
 * The limit subject of a resolved account: every name of the account (username, email, any case or
 * spacing) shares one counter, so alternating them gains no tries.
 */
export function accountSubject(id: string | number | bigint): string {
  return `user:${String(id)}`;
}

/** The limit subject of an identifier that names no account: its normalised form. */
export function identifierSubject(identifier: unknown): string {
  return `name:${normaliseIdentifier(identifier)}`;
}

/**
 * The per-address key: IPv4 as is (also when written as IPv4-mapped IPv6), IPv6 by its /64, the
 * block one client usually holds (per-address counting would give it 2^64 fresh addresses).
 */
export function clientAddressKey(address: string): string {
  const text = String(address).slice(0, 64).toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (mapped) return mapped[1]!;
  if (!text.includes(":") || isIP(text) !== 6) return text;
  const [head = "", tail = ""] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = text.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

/** Limits of {@link LoginLimiter}. */
export interface LoginLimits {
  /** Failures allowed per account in a window. */
  readonly account: number;
  /** Failures allowed per address in a window. */
  readonly address: number;
  /** Window length in seconds. */
  readonly windowSeconds: number;
}

/** Applies {@link LoginLimits} over an {@link AttemptCounter}. */
export class LoginLimiter {
  readonly #counter: AttemptCounter;
  readonly #limits: LoginLimits;

  readonly #outage: OutageLog | undefined;

  /** `outage` (koa-host's `outageLog`) hears of every counter failure and success, so an outage is logged once, not per login. */
  constructor(counter: AttemptCounter, limits: LoginLimits, outage?: OutageLog) {
    this.#counter = counter;
    this.#limits = limits;
    this.#outage = outage;
  }

  static #accountKey(subject: string): string {
    // Hashed: subjects hold client input of any length.
    return `acct:${createHash("sha256").update(subject).digest("base64url")}`;
  }

  static #addressKey(address: string): string {
    return `addr:${clientAddressKey(address)}`;
  }

  async #safely<T>(action: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await action();
    } catch (error) {
      const unavailable = Object.assign(new E_LOGIN_LIMIT_UNAVAILABLE(), { cause: error });
      if (!this.#outage) throw unavailable;
      this.#outage.failed(error);
      throw markOutageReported(unavailable);
    }
    this.#outage?.recovered();
    return result;
  }

  /**
   * Counts one login attempt against the account and the address, before any password is checked,
   * and throws 429 (with `Retry-After`) when either is already at its limit: the attempt is then
   * not counted, and refused even if its password is right. `subject` names the account:
   * {@link accountSubject} for a resolved one, else {@link identifierSubject}. An attempt stays
   * counted as a failure unless {@link succeed} takes it back.
   */
  async attempt(subject: string, address: string): Promise<void> {
    const windowMs = this.#limits.windowSeconds * 1000;
    const result = await this.#safely(() =>
      this.#counter.take(
        [
          { key: LoginLimiter.#accountKey(subject), limit: this.#limits.account },
          { key: LoginLimiter.#addressKey(address), limit: this.#limits.address },
        ],
        windowMs,
      ),
    );
    if (!result.allowed) {
      const seconds = Math.max(1, Math.ceil((result.resetAt - Date.now()) / 1000));
      throw withHeaders(new E_TOO_MANY_LOGIN_ATTEMPTS(seconds), { "Retry-After": String(seconds) });
    }
  }

  /**
   * After a successful attempt: clears the account's failures, and takes the attempt back from the
   * address (which keeps counting its failures only).
   */
  async succeed(subject: string, address: string): Promise<void> {
    await this.#safely(() =>
      Promise.all([this.#counter.reset(LoginLimiter.#accountKey(subject)), this.#counter.release(LoginLimiter.#addressKey(address))]),
    );
  }

  async close(): Promise<void> {
    await this.#counter.close();
  }
}

/**
 * Limits failed logins per account and per client address within a time window: after the limit,
 * attempts are refused with 429 and `Retry-After` until the window ends, before the password is
 * even checked. Counters live in memory by default, or in Redis so every process shares them.
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

/** Where failed-login counters live (memory or Redis). */
export interface AttemptCounter {
  /** Adds one to `key`, starting a window of `windowMs` if none is open. */
  hit(key: string, windowMs: number): Promise<AttemptCount>;
  /** The current count, or `undefined` when no window is open. */
  peek(key: string): Promise<AttemptCount | undefined>;
  /** Forgets `key`. */
  reset(key: string): Promise<void>;
  close(): Promise<void>;
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
      if (this.#counts.size >= this.#maxKeys) this.#prune(now);
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

  async reset(key: string): Promise<void> {
    this.#counts.delete(key);
  }

  async close(): Promise<void> {
    this.#counts.clear();
  }

  #prune(now: number): void {
    for (const [key, entry] of this.#counts) if (entry.resetAt <= now) this.#counts.delete(key);
    // Still full of live windows: drop the oldest (Map keeps insertion order).
    for (const key of this.#counts.keys()) {
      if (this.#counts.size < this.#maxKeys) break;
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
   * Throws 429 (with `Retry-After`) when the account or the address is over its limit. `subject`
   * names the account: {@link accountSubject} for a resolved one, else {@link identifierSubject}.
   */
  async check(subject: string, address: string): Promise<void> {
    const [byAccount, byAddress] = await this.#safely(() =>
      Promise.all([this.#counter.peek(LoginLimiter.#accountKey(subject)), this.#counter.peek(LoginLimiter.#addressKey(address))]),
    );
    const now = Date.now();
    let resetAt = 0;
    if (byAccount && byAccount.count >= this.#limits.account) resetAt = Math.max(resetAt, byAccount.resetAt);
    if (byAddress && byAddress.count >= this.#limits.address) resetAt = Math.max(resetAt, byAddress.resetAt);
    if (resetAt > now) {
      const seconds = Math.max(1, Math.ceil((resetAt - now) / 1000));
      throw withHeaders(new E_TOO_MANY_LOGIN_ATTEMPTS(seconds), { "Retry-After": String(seconds) });
    }
  }

  /** Counts one failed login against the account and the address. */
  async fail(subject: string, address: string): Promise<void> {
    const windowMs = this.#limits.windowSeconds * 1000;
    await this.#safely(() =>
      Promise.all([
        this.#counter.hit(LoginLimiter.#accountKey(subject), windowMs),
        this.#counter.hit(LoginLimiter.#addressKey(address), windowMs),
      ]),
    );
  }

  /** Clears the account's failures after a successful login (the address keeps its count). */
  async succeed(subject: string): Promise<void> {
    await this.#safely(() => this.#counter.reset(LoginLimiter.#accountKey(subject)));
  }

  async close(): Promise<void> {
    await this.#counter.close();
  }
}

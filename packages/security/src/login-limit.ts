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
import {
  markOutageReported,
  WindowCounts,
  type CounterLimit,
  type OutageLog,
  type TakeResult,
  type WindowCount,
} from "@fwkit/battery-kit";
import { report, telemetry } from "@fwkit/battery-kit";
import { E_LOGIN_LIMIT_UNAVAILABLE, E_TOO_MANY_LOGIN_ATTEMPTS, withHeaders } from "./errors.js";

/** One counter's state. */
export type AttemptCount = WindowCount;

/** One counter and its limit, and what taking from counters answers (koa-host's counters). */
export type { CounterLimit, TakeResult };

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

/** Counters in this process's memory; bounded so that random account names cannot exhaust it. */
export class MemoryAttemptCounter implements AttemptCounter {
  readonly #counts: WindowCounts;

  constructor(maxKeys = 100_000) {
    this.#counts = new WindowCounts(maxKeys);
  }

  /** Adds one to `key` whatever its count, starting a window of `windowMs` if none is open. */
  async hit(key: string, windowMs: number): Promise<AttemptCount> {
    return this.#counts.hit(key, windowMs);
  }

  /** The current count, or `undefined` when no window is open. */
  async peek(key: string): Promise<AttemptCount | undefined> {
    return this.#counts.peek(key);
  }

  async take(limits: readonly CounterLimit[], windowMs: number): Promise<TakeResult> {
    return this.#counts.take(limits, windowMs);
  }

  async release(key: string): Promise<void> {
    this.#counts.release(key);
  }

  async reset(key: string): Promise<void> {
    this.#counts.reset(key);
  }

  async close(): Promise<void> {
    this.#counts.clear();
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
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
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
      // Refusals are a metric (the observability battery); nothing when unobserved.
      report(telemetry.loginRefused, () => ({ scope: "login" }));
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
      Promise.all([
        this.#counter.reset(LoginLimiter.#accountKey(subject)),
        this.#counter.release(LoginLimiter.#addressKey(address)),
      ]),
    );
  }

  async close(): Promise<void> {
    await this.#counter.close();
  }
}

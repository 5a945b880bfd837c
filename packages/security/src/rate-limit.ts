/**
 * `rateLimit(options)`: at most `max` requests per `window` to a view (class or method), counted
 * per client address, per logged-in user, or per any key the app derives from the request (the
 * email address a reset link goes to). Over the limit the route answers 429 with `Retry-After`.
 * The rule is a route tag read at start-up; the counters are the login limiter's (memory, shared
 * by the workers of a node, or Redis across nodes). The `rateLimits` config block retunes or
 * switches off a named limit without touching code.
 */
import { createHash } from "node:crypto";
import type { Context, Middleware } from "koa";
import { inputRefusedSlot } from "@fwkit/koa-host/plugin";
import { markOutageReported, type OutageLog } from "@fwkit/battery-kit";
import { checkOptionKeys, setTag, type Route, type ViewDecorator } from "routing-kernel";
import { E_RATE_LIMIT_INVALID, E_RATE_LIMIT_UNAVAILABLE, E_TOO_MANY_REQUESTS, withHeaders } from "./errors.js";
import { clientAddressKey, normaliseIdentifier, type AttemptCounter, type CounterLimit } from "./login-limit.js";
import { runtimeOf } from "./runtime.js";
import { currentUserSlot } from "./request-state.js";

/**
 * What a limit counts by: the client address, the logged-in user (else the address), the email
 * address in the request's body (trimmed, lower-cased), or a key of the app's.
 */
export type RateLimitBy = "ip" | "user" | "email" | ((ctx: Context) => string | number | null | undefined);

/** Options of {@link rateLimit}. */
export interface RateLimitOptions {
  /** Requests allowed per window (an integer of at least 1). */
  readonly max: number;
  /** The window: seconds, or a span such as `"30s"`, `"5m"`, `"1h"`, `"1d"`. */
  readonly window: number | string;
  /**
   * What is counted (default `"ip"`): `"ip"` per client address (IPv6 per /64), `"user"` per
   * logged-in user (anonymous requests per address), `"email"` per address in the body's `email`
   * field (Unicode-normalised, trimmed and lower-cased, so `" Target@"` and `"target@"` share a
   * count), or a function of the request returning a key; a request for which there is no key
   * (null, undefined, "", no email field) is not counted by this limit.
   */
  readonly by?: RateLimitBy;
  /**
   * Names the counter: routes with the same name share it, and the `rateLimits` config block
   * retunes it by this name (default: a counter of this decorator's own).
   */
  readonly name?: string;
  /** The first sentence of the 429 answer (default "Too many requests."). */
  readonly message?: string;
  /**
   * `false`: a request refused for its input (a validation error: the form sent back with its
   * errors, or 422) gives its count back, so the limit counts only what the view accepted (the
   * mails a form sends to the address typed). Default `true`: every request counts.
   */
  readonly countInvalid?: boolean;
}

/** A checked {@link RateLimitOptions}, as stored in the route's tag. */
export interface RateLimitRule {
  readonly name: string | undefined;
  readonly max: number;
  readonly windowSeconds: number;
  readonly by: RateLimitBy;
  readonly message: string | undefined;
  readonly countInvalid: boolean;
  /** Set by a class-level decorator: the counter every method of the class shares. */
  readonly scope?: string;
}

/** A named limit's settings in the `rateLimits` config block, or `false` to switch it off. */
export type RateLimitOverride = { readonly max?: number; readonly window?: number | string } | false;

/** Every route tag of {@link rateLimit} starts with this (one tag per decorator, so limits stack). */
export const RATE_LIMIT_TAG_PREFIX = "security.rateLimit:";

const OPTION_KEYS: readonly string[] = Object.freeze(["max", "window", "by", "name", "message", "countInvalid"]);
const OVERRIDE_KEYS: readonly string[] = Object.freeze(["max", "window"]);
const UNITS: Readonly<Record<string, number>> = Object.freeze({ s: 1, m: 60, h: 3600, d: 86_400 });
let serial = 0;

/** Seconds of a window: a positive number of seconds or `"<n>s|m|h|d"`; throws naming `where`. */
export function windowSeconds(value: unknown, where: string): number {
  if (typeof value === "number" && Number.isInteger(value) && value >= 1) return value;
  const match = typeof value === "string" ? /^\s*(\d{1,9})\s*(s|m|h|d)\s*$/.exec(value) : null;
  if (match && Number(match[1]) >= 1) return Number(match[1]) * UNITS[match[2]!]!;
  throw new E_RATE_LIMIT_INVALID(
    where,
    `"window" must be whole seconds (>= 1) or a span such as "30s", "5m", "1h", "1d"; got ${JSON.stringify(value) ?? String(value)}`,
  );
}

function maxOf(value: unknown, where: string): number {
  if (typeof value === "number" && Number.isInteger(value) && value >= 1) return value;
  throw new E_RATE_LIMIT_INVALID(
    where,
    `"max" must be an integer of at least 1; got ${JSON.stringify(value) ?? String(value)}`,
  );
}

/** Checks `@rateLimit` options: unknown keys are an error naming the known ones, bad values a coded error. */
export function parseRateLimit(options: unknown, where = "@rateLimit(options)"): RateLimitRule {
  if (options === undefined)
    throw new E_RATE_LIMIT_INVALID(where, 'give at least { max, window }, e.g. { max: 5, window: "1m" }');
  checkOptionKeys(where, options, OPTION_KEYS);
  const given = options as Record<string, unknown>;
  const by = given["by"] ?? "ip";
  if (by !== "ip" && by !== "user" && by !== "email" && typeof by !== "function") {
    throw new E_RATE_LIMIT_INVALID(
      where,
      `"by" must be "ip", "user", "email" or a function (ctx) => key; got ${JSON.stringify(by) ?? String(by)}`,
    );
  }
  const name = given["name"];
  if (name !== undefined && (typeof name !== "string" || !/^[\w.:-]{1,64}$/.test(name))) {
    throw new E_RATE_LIMIT_INVALID(
      where,
      `"name" must be 1-64 letters, digits, "_", ".", ":" or "-"; got ${JSON.stringify(name)}`,
    );
  }
  const message = given["message"];
  if (message !== undefined && typeof message !== "string")
    throw new E_RATE_LIMIT_INVALID(where, '"message" must be a string');
  const countInvalid = given["countInvalid"] ?? true;
  if (typeof countInvalid !== "boolean")
    throw new E_RATE_LIMIT_INVALID(
      where,
      `"countInvalid" must be true or false; got ${JSON.stringify(countInvalid) ?? String(countInvalid)}`,
    );
  return Object.freeze({
    name: name as string | undefined,
    max: maxOf(given["max"], where),
    windowSeconds: windowSeconds(given["window"], where),
    by: by as RateLimitBy,
    message: message as string | undefined,
    countInvalid,
  });
}

/**
 * Limits how often a view (class or method) may be called: `@rateLimit({ max: 5, window: "1m" })`
 * per client address, `by: "user"` per logged-in user, `by: "email"` per address typed,
 * `by: (ctx) => key` per key of the app's. Several decorators on one view stack (all are checked
 * before any counts); a class's limits apply to every method beside the method's own, and count
 * the class as a whole: `max: 4` on a class allows 4 calls in all, whichever methods they reach.
 * Options are checked when the decorator is applied.
 */
export function rateLimit(options: RateLimitOptions): ViewDecorator {
  const rule = parseRateLimit(options);
  const id = ++serial;
  const key = `${RATE_LIMIT_TAG_PREFIX}${id}`;
  const onMethod = setTag("rateLimit", key, rule);
  const onClass = setTag("rateLimit", key, Object.freeze({ ...rule, scope: `c:${id}` }));
  return (value, context) => (context.kind === "class" ? onClass : onMethod)(value, context);
}

/** Checks the `rateLimits` config block: `{ [name]: { max?, window? } | false }`. */
export function resolveRateLimitOverrides(value: unknown): ReadonlyMap<string, RateLimitOverride> {
  const overrides = new Map<string, RateLimitOverride>();
  if (value === undefined || value === null) return overrides;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new E_RATE_LIMIT_INVALID(
      'The config key "rateLimits"',
      "it must be a block { name: { max, window } | false }",
    );
  }
  for (const [name, entry] of Object.entries(value)) {
    const where = `The config key "rateLimits.${name}"`;
    if (entry === false) {
      overrides.set(name, false);
      continue;
    }
    checkOptionKeys(where, entry, OVERRIDE_KEYS);
    if (typeof entry !== "object" || entry === null)
      throw new E_RATE_LIMIT_INVALID(where, "it must be { max, window } or false");
    const { max, window } = entry as Record<string, unknown>;
    overrides.set(name, {
      ...(max !== undefined ? { max: maxOf(max, where) } : {}),
      ...(window !== undefined ? { window: windowSeconds(window, where) } : {}),
    });
  }
  return overrides;
}

/** The limits a route's tags ask for, with the config's overrides applied; named ones off are left out. */
export function routeRateLimits(
  route: Route,
  overrides: ReadonlyMap<string, RateLimitOverride>,
): Array<RateLimitRule & { readonly bucket: string }> {
  const rules: Array<RateLimitRule & { readonly bucket: string }> = [];
  for (const [key, value] of Object.entries(route.tags)) {
    if (!key.startsWith(RATE_LIMIT_TAG_PREFIX)) continue;
    const rule = value as RateLimitRule;
    const override = rule.name !== undefined ? overrides.get(rule.name) : undefined;
    if (override === false) continue;
    rules.push({
      ...rule,
      ...(override?.max !== undefined ? { max: override.max } : {}),
      ...(override?.window !== undefined ? { windowSeconds: override.window as number } : {}),
      // A named limit is shared by every route that names it, a class's by the class's methods;
      // else each route counts on its own.
      bucket:
        rule.name !== undefined
          ? `n:${rule.name}`
          : (rule.scope ?? `r:${route.id}:${key.slice(RATE_LIMIT_TAG_PREFIX.length)}`),
    });
  }
  return rules;
}

/** What `rule` counts this request by, or `undefined` when it does not count it. */
function subjectOf(ctx: Context, rule: RateLimitRule): string | undefined {
  const address = `ip:${clientAddressKey(ctx.ip || "unknown")}`;
  if (rule.by === "ip") return address;
  if (rule.by === "user") {
    const user = currentUserSlot.get(ctx) as { id?: unknown } | null | undefined;
    if (user === null || user === undefined) return address;
    const hook = runtimeOf(ctx, "@rateLimit").users.userId;
    return `user:${String(hook ? hook(user) : user.id)}`;
  }
  if (rule.by === "email") {
    const body = (ctx.request as { body?: unknown }).body;
    const email = body && typeof body === "object" ? (body as Record<string, unknown>)["email"] : undefined;
    const typed = typeof email === "string" ? normaliseIdentifier(email) : "";
    return typed === "" ? undefined : `email:${typed}`;
  }
  const key = rule.by(ctx);
  if (key === undefined || key === null || key === "") return undefined;
  return `key:${String(key)}`;
}

/**
 * True when the request was refused for its input: the data battery's validation error, answered
 * below the limit (it marks the host's `inputRefusedSlot`) or thrown through it (matched by its code, so
 * security needs no data import).
 */
function refusedInput(ctx: Context, error?: unknown): boolean {
  if (inputRefusedSlot.get(ctx) === true) return true;
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "E_VALIDATION";
}

/**
 * Route middleware of a route's limits (decided at start-up): checks every limit and counts the
 * request against all of them in one atomic step, and answers 429 with `Retry-After` once one is
 * full (the request is then counted by none). A request refused for its input gives back the counts of the limits with
 * `countInvalid: false`. A counter store that cannot be reached refuses the request (503): limits fail closed.
 */
export function rateLimitMiddleware(
  rules: ReadonlyArray<RateLimitRule & { readonly bucket: string }>,
  counter: AttemptCounter,
  outage?: OutageLog,
): Middleware {
  const safely = async <T>(action: () => Promise<T>): Promise<T> => {
    let result: T;
    try {
      result = await action();
    } catch (error) {
      const unavailable = Object.assign(new E_RATE_LIMIT_UNAVAILABLE(), { cause: error });
      if (!outage) throw unavailable;
      outage.failed(error);
      throw markOutageReported(unavailable);
    }
    outage?.recovered();
    return result;
  };
  return async (ctx, next) => {
    const limits: CounterLimit[] = [];
    const counted: RateLimitRule[] = [];
    const givenBackIfInvalid: string[] = [];
    for (const rule of rules) {
      const subject = subjectOf(ctx, rule);
      if (subject === undefined) continue;
      // Hashed: keys hold client input of any length.
      const key = `rl:${rule.bucket}:${createHash("sha256").update(subject).digest("base64url")}`;
      limits.push({ key, limit: rule.max, windowMs: rule.windowSeconds * 1000 });
      counted.push(rule);
      if (!rule.countInvalid) givenBackIfInvalid.push(key);
    }
    if (limits.length > 0) {
      // Every limit checked before any is counted, in one step: a request one limit refuses opens
      // no window in another (a flood of new addresses typed cannot fill the counter table).
      const result = await safely(() => counter.take(limits, limits[0]!.windowMs!));
      if (!result.allowed) {
        const seconds = Math.max(1, Math.ceil((result.resetAt - Date.now()) / 1000));
        const rule = counted[result.refusedBy ?? 0] ?? counted[0]!;
        throw withHeaders(new E_TOO_MANY_REQUESTS(seconds, rule.message), { "Retry-After": String(seconds) });
      }
    }
    const giveBack = () => safely(() => Promise.all(givenBackIfInvalid.map((key) => counter.release(key))));
    try {
      await next();
    } catch (error) {
      if (givenBackIfInvalid.length > 0 && refusedInput(ctx, error)) await giveBack();
      throw error;
    }
    if (givenBackIfInvalid.length > 0 && refusedInput(ctx)) await giveBack();
  };
}

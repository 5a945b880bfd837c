/**
 * CSRF protection: one secret per visitor; pages get a masked token (a fresh mask each call, so
 * the token in a compressed page never repeats); every request with a verb other than GET, HEAD,
 * OPTIONS and TRACE must send it back in the form field `_csrf_token` or the header
 * `X-CSRF-Token`, whatever answers it (a view, a hand-written route, a plugin, a mounted app).
 * Requests authenticated only by a bearer token (no session cookie) cannot be forged by a browser
 * and are exempt; so are routes marked `csrfExempt` and paths listed in `csrfExemptPaths`.
 *
 * Where the secret lives: a visitor who is not logged in keeps it in a signed cookie of its own
 * (HttpOnly, SameSite=Lax, `__Host-` and Secure when cookies are Secure), so a page with a form
 * stores no server-side session. At login the session takes that secret over (pages rendered
 * before login keep working) and from then on the session's copy is the one checked, so a CSRF
 * cookie written later by anyone else changes nothing.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Context, Middleware } from "koa";
import { defineSlot, routeSlot, type HostRuntime } from "@fwkit/koa-host/plugin";
import { bareOrCalled, setTag, type Route, type ViewDecorator } from "routing-kernel";
import { E_CSRF_TOKEN_INVALID, E_CSRF_TOKEN_MISSING } from "./errors.js";
import { findRuntime, type CsrfCookieSettings } from "./runtime.js";
import { CSRF_SECRET_KEY, getSession, sessionCookieName, sessionMayExist } from "./session.js";

/** Route tag set by {@link csrfExempt}. */
export const CSRF_EXEMPT_TAG = "security.csrfExempt";
/** Form field that carries the token. */
export const CSRF_FIELD = "_csrf_token";
/** Header that carries the token. */
export const CSRF_HEADER = "X-CSRF-Token";

const SECRET_BYTES = 32;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);

/**
 * Exempts a view class or method from the CSRF check (webhooks, endpoints with their own
 * authentication). Usable bare (`@csrfExempt`) or called (`@csrfExempt()`).
 */
export const csrfExempt = bareOrCalled<ViewDecorator>(() => setTag("csrfExempt", CSRF_EXEMPT_TAG, true), "csrfExempt");

function decodeSecret(value: unknown): Buffer | undefined {
  if (typeof value !== "string") return undefined;
  const bytes = Buffer.from(value, "base64url");
  return bytes.length === SECRET_BYTES ? bytes : undefined;
}

/** The request's CSRF cookie secret, read once; null once forgotten during the request (a logout). */
const cookieSecretSlot = defineSlot<Buffer | null>("fw-security.csrf-cookie-secret");

/** The secret the session holds (a logged-in visitor's), without making a session that does not exist. */
function sessionSecret(ctx: Context): Buffer | undefined {
  if (!sessionMayExist(ctx)) return undefined;
  return decodeSecret(getSession(ctx, "The CSRF check")[CSRF_SECRET_KEY]);
}

/** The secret of the visitor's signed CSRF cookie (read once per request); with `create`, a new one is set when there is none. */
function cookieSecret(ctx: Context, settings: CsrfCookieSettings, create: boolean): Buffer | undefined {
  let secret = cookieSecretSlot.get(ctx);
  if (secret) return secret;
  // null: forgotten during this request (a logout), so the request's cookie no longer counts.
  if (secret === undefined) {
    const raw = ctx.cookies.get(settings.name);
    secret = raw && raw.length <= 200 ? decodeSecret(settings.signer.unsign(raw)) : undefined;
  }
  if (!secret && create) {
    secret = randomBytes(SECRET_BYTES);
    ctx.cookies.set(settings.name, settings.signer.sign(secret.toString("base64url")), {
      httpOnly: true,
      sameSite: "lax",
      secure: settings.secure,
      path: "/",
      overwrite: true,
    });
  }
  if (secret) cookieSecretSlot.set(ctx, secret);
  return secret ?? undefined;
}

/**
 * Forgets the visitor's CSRF cookie (at logout, or when a stale login ends): tokens of pages
 * rendered before stop working, and the next page gets a new secret.
 */
export function forgetCsrfCookie(ctx: Context): void {
  const settings = findRuntime(ctx)?.csrfCookie;
  if (!settings) return;
  cookieSecretSlot.set(ctx, null);
  if (ctx.cookies.get(settings.name) !== undefined) {
    ctx.cookies.set(settings.name, "", {
      httpOnly: true,
      sameSite: "lax",
      secure: settings.secure,
      path: "/",
      overwrite: true,
    });
  }
}

/**
 * The visitor's current secret: the session's when it holds one, else the CSRF cookie's (made
 * when `create`). Without the security plugin (the session middleware alone) the session holds it.
 */
function currentSecret(ctx: Context, create: boolean): Buffer | undefined {
  const settings = findRuntime(ctx)?.csrfCookie;
  if (!settings) {
    const session = getSession(ctx, "csrfToken()");
    let secret = decodeSecret(session[CSRF_SECRET_KEY]);
    if (!secret && create) {
      secret = randomBytes(SECRET_BYTES);
      session[CSRF_SECRET_KEY] = secret.toString("base64url");
    }
    return secret;
  }
  return sessionSecret(ctx) ?? cookieSecret(ctx, settings, create);
}

/**
 * Runs `action` (which gives the session a new id and drops its CSRF secret: a login, a password
 * change), then puts the visitor's secret into the session, so pages rendered before keep working
 * and the session holds the secret from now on.
 */
export async function keepCsrfSecret(ctx: Context, action: () => Promise<void>): Promise<void> {
  const secret = currentSecret(ctx, false);
  await action();
  const session = getSession(ctx, "The CSRF check");
  session[CSRF_SECRET_KEY] = (secret ?? randomBytes(SECRET_BYTES)).toString("base64url");
}

/** The CSRF token for this visitor (making the secret on first use: a signed cookie, no stored session). */
export function csrfToken(ctx: Context): string {
  const secret = currentSecret(ctx, true)!;
  const mask = randomBytes(SECRET_BYTES);
  const masked = Buffer.alloc(SECRET_BYTES);
  for (let i = 0; i < SECRET_BYTES; i++) masked[i] = secret[i]! ^ mask[i]!;
  return Buffer.concat([mask, masked]).toString("base64url");
}

/** True when `token` is a token of this visitor's secret (compared in constant time). */
export function csrfTokenMatches(ctx: Context, token: string): boolean {
  const secret = currentSecret(ctx, false);
  if (!secret || token.length > 200) return false;
  const bytes = Buffer.from(token, "base64url");
  if (bytes.length !== SECRET_BYTES * 2) return false;
  const unmasked = Buffer.alloc(SECRET_BYTES);
  for (let i = 0; i < SECRET_BYTES; i++) unmasked[i] = bytes[i]! ^ bytes[i + SECRET_BYTES]!;
  return timingSafeEqual(unmasked, secret);
}

/** The token the request sent: the header first, then the form field. */
export function sentCsrfToken(ctx: Context): string | undefined {
  const header = ctx.get(CSRF_HEADER);
  if (header) return header;
  const body = (ctx.request as { body?: unknown }).body;
  if (body && typeof body === "object" && !Array.isArray(body)) {
    const field = (body as Record<string, unknown>)[CSRF_FIELD];
    if (typeof field === "string" && field) return field;
    if (Array.isArray(field) && typeof field[0] === "string") return field[0];
  }
  return undefined;
}

/** True for methods that must not change state and so need no token. */
export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method.toUpperCase());
}

/** True when the request carries a bearer token and no session cookie. */
export function isBearerOnly(ctx: Context): boolean {
  if (!/^Bearer\s+\S/i.test(ctx.get("Authorization"))) return false;
  const cookie = sessionCookieName(ctx);
  return cookie === undefined || !ctx.cookies.get(cookie);
}

/** Throws 403 unless the request is safe, bearer-only, or carries this session's token. */
export function verifyCsrf(ctx: Context): void {
  if (isSafeMethod(ctx.method) || isBearerOnly(ctx)) return;
  const token = sentCsrfToken(ctx);
  if (!token) throw new E_CSRF_TOKEN_MISSING(ctx.method);
  if (!csrfTokenMatches(ctx, token)) throw new E_CSRF_TOKEN_INVALID();
}

/**
 * A matcher of `csrfExemptPaths` entries, built once: `/hooks/stripe` is that path exactly,
 * `/hooks/*` every path under `/hooks/`. Paths are relative to the app (its `basePath` removed).
 */
export function exemptPathMatcher(paths: readonly string[]): (path: string) => boolean {
  const exact = new Set(paths.filter((path) => !path.endsWith("/*")));
  const prefixes = paths.filter((path) => path.endsWith("/*")).map((path) => path.slice(0, -1));
  if (exact.size === 0 && prefixes.length === 0) return () => false;
  return (path) => exact.has(path) || prefixes.some((prefix) => path.startsWith(prefix));
}

/** Options of {@link csrfGuard}, decided at start-up. */
export interface CsrfGuardOptions {
  /** True for a view route that needs no check (`csrfExempt`, `bearerAuth`). */
  readonly exemptRoute: (route: Route) => boolean;
  /** Paths (not view routes) that need no check: `csrfExemptPaths`. */
  readonly exemptPaths: readonly string[];
}

/**
 * App-wide CSRF check, run after the session and before any other plugin, hand-written route or
 * view: fail closed, every unsafe request is checked unless exempt. A request with a valid token
 * costs what the per-route check did; only one without asks the dispatcher which route it is for
 * (safe answers such as 405 or a slash redirect pass; the error of a view route takes its kind).
 */
export function csrfGuard(options: CsrfGuardOptions): Middleware {
  const exemptPath = exemptPathMatcher(options.exemptPaths);
  return (ctx, next) => {
    if (SAFE_METHODS.has(ctx.method) || isBearerOnly(ctx)) return next();
    const token = sentCsrfToken(ctx);
    if (token && csrfTokenMatches(ctx, token)) return next();
    // The host puts its runtime on every context; a bare Koa app (no host) has none.
    const runtime = ctx.runtime as HostRuntime | undefined;
    const found = runtime?.lookupRoute(ctx);
    if (found?.answersItself) return next();
    if (found?.route) {
      if (options.exemptRoute(found.route)) return next();
      routeSlot.set(ctx, found.route);
    } else {
      const basePath = runtime?.basePath ?? "";
      const path = basePath && ctx.path.startsWith(basePath) ? ctx.path.slice(basePath.length) || "/" : ctx.path;
      if (exemptPath(path)) return next();
    }
    throw token ? new E_CSRF_TOKEN_INVALID() : new E_CSRF_TOKEN_MISSING(ctx.method);
  };
}

/** Middleware that applies {@link verifyCsrf} (the security plugin already checks app-wide). */
export function csrfMiddleware(): Middleware {
  return async (ctx, next) => {
    verifyCsrf(ctx);
    await next();
  };
}

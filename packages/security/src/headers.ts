/**
 * Security headers with helmet's defaults for HTML (a same-origin Content-Security-Policy,
 * nosniff, frame-ancestors, referrer policy...), through koa-helmet's options. Outside production
 * HSTS and `upgrade-insecure-requests` are left out so plain-HTTP development servers keep working.
 *
 * The headers depend on the options alone, so helmet runs once, at start-up, against a recording
 * response; every request then gets that frozen list in one loop (helmet re-running per
 * request, through a promisified callback, was among the largest items of a cookie-less GET).
 * Options helmet computes per request (a CSP directive given as a function, e.g. a nonce) keep
 * helmet running per request.
 *
 * The recorded names are set in lower case (`content-security-policy`), as HTTP/2 writes every
 * name and as `x-request-id` is written: header names are case-insensitive, and Node keys its
 * header table by the lower-case name. The recorded headers are checked once, when recorded, and
 * written straight into Node's header table per request (koa-host's `checkedHeaders`): Node's
 * per-header name and value checks were about half of the headers' cost.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Context, Middleware } from "koa";
import type helmet from "koa-helmet";
import { checkedHeaders } from "@fwkit/koa-host/plugin";
import { requireDriver } from "./drivers.js";
import { E_SECURITY_CONFIG_INVALID } from "./errors.js";

/** koa-helmet's options. */
export type SecurityHeadersOptions = NonNullable<Parameters<typeof helmet>[0]>;

/** What helmet does to a response: headers set (lower-case name, value) and headers removed (x-powered-by). */
interface HeaderPlan {
  readonly set: ReadonlyArray<readonly [string, string]>;
  readonly remove: readonly string[];
}

/** True when an option is computed per request (helmet calls functions in CSP directives with req, res). */
function hasFunction(value: unknown, depth = 0): boolean {
  if (typeof value === "function") return true;
  if (depth > 6 || value === null || typeof value !== "object") return false;
  return Object.values(value as Record<string, unknown>).some((inner) => hasFunction(inner, depth + 1));
}

/**
 * Runs a koa-helmet middleware once against a response that records what it does. Helmet sets its
 * headers synchronously (koa-helmet only wraps the callback in a promise), so the plan is complete
 * when the call returns; `failed` is called if helmet reported an error instead.
 */
function recordHeaders(middleware: Middleware, failed: () => void): HeaderPlan {
  // Lower-case name to value: the names are kept as they will be sent.
  const set = new Map<string, string>();
  const remove: string[] = [];
  const res = {
    setHeader(name: string, value: unknown) {
      set.set(name.toLowerCase(), String(value));
      return res;
    },
    removeHeader(name: string) {
      set.delete(name.toLowerCase());
      remove.push(name.toLowerCase());
    },
    getHeader: (name: string) => set.get(name.toLowerCase()),
    hasHeader: (name: string) => set.has(name.toLowerCase()),
  };
  const req = { method: "GET", url: "/", headers: {} } as unknown as IncomingMessage;
  Promise.resolve(middleware({ req, res: res as unknown as ServerResponse } as never, async () => {})).catch(failed);
  return Object.freeze({ set: Object.freeze([...set]), remove: Object.freeze(remove) });
}

/** The security headers of an app, decided at start-up. */
export interface SecurityHeaders {
  /** Sets the headers on the response; false when helmet must run per request (then use `middleware`). */
  readonly apply: (ctx: Context) => boolean;
  /** The same as a middleware of its own. */
  readonly middleware: Middleware;
}

/**
 * The security headers for an environment, with the app's options over the defaults: helmet's
 * headers recorded once, set per request in one loop (`apply`, which the security plugin runs
 * inside its first layer), or helmet itself per request when an option is a function.
 */
export function securityHeaders(options: Record<string, unknown>, production: boolean): SecurityHeaders {
  const defaults: Record<string, unknown> = production
    ? {}
    : { strictTransportSecurity: false, contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } };
  // Required (the CommonJS build) when the middleware is made, not with the package, like session.ts.
  const koaHelmet = requireDriver<typeof helmet>("koa-helmet", "security headers");
  const merged = { ...defaults, ...options };
  const perRequest = koaHelmet(merged as SecurityHeadersOptions);
  if (hasFunction(merged)) return { apply: () => false, middleware: perRequest };
  // Should helmet ever refuse the recorded run, every request goes through helmet as before.
  let helmetPerRequest = false;
  const { set, remove } = recordHeaders(perRequest, () => {
    helmetPerRequest = true;
  });
  const headers = checkedOrRefused(set, remove);
  const apply = (ctx: Context): boolean => {
    if (helmetPerRequest) return false;
    headers.set(ctx.res);
    return true;
  };
  return { apply, middleware: (ctx, next) => (apply(ctx) ? next() : perRequest(ctx, next)) };
}

/**
 * The recorded headers checked as Node checks a header: a value it could not send (a line break in
 * a CSP source) is `E_SECURITY_CONFIG_INVALID` at start-up, not a 500 on every request.
 */
function checkedOrRefused(set: HeaderPlan["set"], remove: HeaderPlan["remove"]) {
  try {
    return checkedHeaders(set, remove);
  } catch (error) {
    // Node's message names the header: `Invalid character in header content ["content-security-policy"]`.
    throw new E_SECURITY_CONFIG_INVALID(
      "securityHeaders",
      `a header it makes could not be sent (${(error as Error).message}); remove the line break or control character from its options`,
    );
  }
}

/** {@link securityHeaders} as one middleware. */
export function securityHeadersMiddleware(options: Record<string, unknown>, production: boolean): Middleware {
  return securityHeaders(options, production).middleware;
}

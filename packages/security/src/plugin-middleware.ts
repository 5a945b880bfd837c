/**
 * The security plugin's middleware, decided at start-up: the app-wide chain (runtime, password
 * policy and headers; CORS; the session; the current user and the CSRF check) and each route's
 * own (its CORS policy, bearer auth, login required, rate limits).
 */
import type { Context, Middleware, Next } from "koa";
import type { HostRuntime } from "@fwkit/koa-host/plugin";
import type { OutageLog } from "@fwkit/battery-kit";
import type { Route } from "routing-kernel";
import { BEARER_AUTH_TAG, bearerAuthMiddleware } from "./bearer.js";
import type { CorsSettings } from "./config.js";
import { CORS_TAG, corsMiddleware } from "./cors.js";
import { CSRF_EXEMPT_TAG, csrfGuard } from "./csrf.js";
import { E_SECURITY_CONFIG_INVALID } from "./errors.js";
import { securityHeaders } from "./headers.js";
import { loadCurrentUserStep } from "./login.js";
import { LOGIN_REQUIRED_TAG, loginRequiredMiddleware } from "./login-required.js";
import { rateLimitMiddleware, routeRateLimits } from "./rate-limit.js";
import { withPasswordPolicy } from "./password-policy.js";
import type { RateCounters } from "./plugin-setup.js";
import { attachRuntime, type SecurityRuntime } from "./runtime.js";
import { sessionMiddleware } from "./session.js";
import type { SessionStore } from "./stores/store.js";

/** Runs middleware in order, as koa-compose does (kept here to avoid a dependency for six lines). */
function compose(chain: readonly Middleware[]): Middleware {
  return (ctx: Context, next: Next) => {
    const run = (i: number): Promise<void> =>
      Promise.resolve(i < chain.length ? chain[i]!(ctx, () => run(i + 1)) : next());
    return run(0);
  };
}

/**
 * The app-wide CORS policy, except for a route with its own `@cors`: that route's policy answers
 * its requests and preflights alone (only cross-origin requests pay for the route lookup).
 */
function appCors(cors: Middleware): Middleware {
  return (ctx, next) => {
    if (!ctx.get("Origin")) return next();
    // A bare Koa app (no host) has no runtime on its context.
    const found = (ctx.runtime as HostRuntime | undefined)?.lookupRoute(ctx);
    const route = found?.route ?? found?.preflightFor;
    if (route?.tags[CORS_TAG]) return next();
    return cors(ctx, next);
  };
}

/** A route that needs no CSRF token: `csrfExempt`, or `bearerAuth` (a header no other site can send). */
function csrfExemptRoute(route: Route): boolean {
  return route.tags[CSRF_EXEMPT_TAG] === true || route.tags[BEARER_AUTH_TAG] === true;
}

/**
 * Runs `step` as a layer of koa-compose would: its synchronous throw becomes a rejection, so the
 * session's end-of-request save (which waits on what follows it) sees every failure.
 */
function chained(step: Middleware, ctx: Context, next: Next): Promise<unknown> {
  try {
    return Promise.resolve(step(ctx, next));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * The app-wide chain as one middleware (each Koa layer costs every request its share): the runtime,
 * the password policy and the headers; CORS (when on), before the session so a preflight is answered
 * without touching the session store; the session; then the current user and the CSRF check.
 * Returned as a list of one, as a plugin's `request` phase gives it.
 */
export function appMiddleware(
  rt: SecurityRuntime,
  store: SessionStore | undefined,
  storeOutage: OutageLog | undefined,
): Middleware[] {
  const { config } = rt;
  const headers =
    config.securityHeaders !== false ? securityHeaders(config.securityHeaders, config.env === "production") : undefined;
  // Fail closed: every unsafe request is checked here, before other plugins, hand-written
  // routes and views, unless its view route is exempt or its path is in csrfExemptPaths.
  const csrf = csrfGuard({ exemptRoute: csrfExemptRoute, exemptPaths: config.csrfExemptPaths });
  const cors = config.cors !== false ? appCors(corsMiddleware(config.cors)) : undefined;
  const session = sessionMiddleware({
    secrets: [config.secretKey, ...config.secretKeyFallbacks],
    cookieName: config.sessionCookie,
    maxAge: config.sessionMaxAge,
    anonymousMaxAge: config.sessionAnonymousMaxAge,
    secure: config.cookieSecure,
    ...(store ? { store, ...(storeOutage ? { storeOutage } : {}) } : {}),
  });
  const userAndCsrf: Middleware = (ctx, next) => {
    const loading = loadCurrentUserStep(ctx);
    return loading ? loading.then(() => csrf(ctx, next)) : csrf(ctx, next);
  };
  const fromSession: Middleware = (ctx, next) => session(ctx, () => chained(userAndCsrf, ctx, next));
  const afterHeaders: Middleware = cors ? (ctx, next) => cors(ctx, () => chained(fromSession, ctx, next)) : fromSession;
  return [
    (ctx, next) => {
      attachRuntime(ctx, rt);
      // The free hashPassword()/needsRehash() (fw-a's security.*, fw-b's exports) read this
      // app's policy. Not an async function: one promise less per request.
      const rest = () => chained(afterHeaders, ctx, next);
      if (headers && !headers.apply(ctx)) return headers.middleware(ctx, () => withPasswordPolicy(rt.passwords, rest));
      return withPasswordPolicy(rt.passwords, rest);
    },
  ];
}

/** One CORS middleware per route, shared by its requests and its preflights. */
export function routeCorsCache(): (route: Route) => Middleware | undefined {
  const corsOfRoute = new WeakMap<Route, Middleware | undefined>();
  return (route) => {
    if (!corsOfRoute.has(route)) {
      const settings = route.tags[CORS_TAG] as CorsSettings | undefined;
      corsOfRoute.set(route, settings ? corsMiddleware(settings) : undefined);
    }
    return corsOfRoute.get(route);
  };
}

/**
 * A route's own middleware from its tags: its CORS policy, bearer auth, login required, its rate
 * limits, then its idempotency keys.
 */
export function routeMiddlewareOf(
  route: Route,
  rt: SecurityRuntime,
  cors: Middleware | undefined,
  rates: RateCounters | undefined,
  idempotency?: Middleware,
): Middleware | undefined {
  const tags = route.tags;
  const chain: Middleware[] = [];
  if (cors) chain.push(cors);
  if (tags[BEARER_AUTH_TAG] === true) chain.push(bearerAuthMiddleware());
  if (tags[LOGIN_REQUIRED_TAG] === true) {
    if (!rt.users.loadUser) {
      throw new E_SECURITY_CONFIG_INVALID(
        "loadUser",
        `${route.id} is @loginRequired but securityPlugin() was given no loadUser(id)`,
      );
    }
    chain.push(loginRequiredMiddleware(route));
  }
  // Last: a request refused earlier (not logged in, no token) is not counted.
  const limits = rates ? routeRateLimits(route, rates.overrides) : [];
  if (rates && limits.length > 0) chain.push(rateLimitMiddleware(limits, rates.counter, rates.outage));
  // Last: only a request that would run claims its key.
  if (idempotency) chain.push(idempotency);
  if (chain.length === 0) return undefined;
  return chain.length === 1 ? chain[0] : compose(chain);
}

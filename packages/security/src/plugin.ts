/**
 * `securityPlugin(options)`: everything in this package as one koa-host plugin. App-wide
 * middleware (security headers, CORS, session, current user), per-route middleware decided at
 * start-up from tags (per-view CORS, bearer auth, CSRF unless exempt, login required), template
 * locals (`csrf_token()`, `current_user`), and bound helpers for passwords and JWTs.
 */
import type { Context, Middleware, Next } from "koa";
import type { JWTPayload } from "jose";
import {
  clusterCounters,
  E_NOT_READY,
  outageLog,
  type HostPlugin,
  type HostRuntime,
  type OutageLog,
  type PluginContext,
} from "@fwkit/koa-host/plugin";
import { checkOptionKeys, type Route } from "routing-kernel";
import { BEARER_AUTH_TAG, bearerAuthMiddleware } from "./bearer.js";
import { resolveSecurityConfig, SECURITY_CONFIG_KEYS, type CorsSettings, type SecurityConfig } from "./config.js";
import { CORS_TAG, corsMiddleware } from "./cors.js";
import { CSRF_EXEMPT_TAG, csrfGuard, csrfToken } from "./csrf.js";
import { E_SECURITY_CONFIG_INVALID, E_SECURITY_NOT_SET_UP } from "./errors.js";
import { securityHeaders } from "./headers.js";
import { resolveJwtKeys, signJwt, verifyJwt, type SignJwtOptions } from "./jwt.js";
import { loadCurrentUserStep } from "./login.js";
import { LoginLimiter, MemoryAttemptCounter, type AttemptCounter } from "./login-limit.js";
import { LOGIN_REQUIRED_TAG, loginRequiredMiddleware } from "./login-required.js";
import { rateLimitMiddleware, resolveRateLimitOverrides, routeRateLimits, type RateLimitOverride } from "./rate-limit.js";
import { securityOpenApi } from "./openapi.js";
import { passwordPolicyOf, registerPasswordPolicy, withPasswordPolicy } from "./password-policy.js";
import { dummyHash, hashPassword, needsRehash, verifyPassword } from "./passwords.js";
import { attachRuntime, type SecurityRuntime, type UserHooks } from "./runtime.js";
import type { CurrentUser } from "./user-type.js";
import { hasSession, sessionMiddleware } from "./session.js";
import { parseSessionUrl, redactUrl } from "./session-url.js";
import { createSigner } from "./signing.js";
import { createSessionStore } from "./stores/create.js";
import type { SessionStore } from "./stores/store.js";

/** Options of {@link securityPlugin}: any security config key (wins over the app config) plus the user hooks. */
export interface SecurityPluginOptions<User = CurrentUser> extends UserHooks<User>, Partial<Omit<SecurityConfig, "cors">> {
  readonly cors?: CorsSettings | false;
  /** A ready session store, used instead of the one `sessionUrl` names. */
  readonly sessionStore?: SessionStore;
  /** Named `rateLimit` limits retuned (`{ max, window }`) or switched off (`false`). */
  readonly rateLimits?: Readonly<Record<string, RateLimitOverride>>;
}

/** The plugin, with helpers bound to the app's configuration (usable after `setup`). */
export interface SecurityPlugin extends HostPlugin {
  /** The resolved configuration. */
  readonly config: SecurityConfig;
  /** The server-side session store, `undefined` for cookie sessions. */
  readonly store: SessionStore | undefined;
  /** Hashes with the configured algorithm and cost. */
  hashPassword(password: string): Promise<string>;
  /** Verifies against a bcrypt or argon2 hash. */
  verifyPassword(password: string, stored: string): Promise<boolean>;
  /** True when a hash was made with another algorithm or cost than configured. */
  needsRehash(stored: string): boolean;
  /** Signs a JWT with the configured algorithm and key. */
  signJwt(claims: JWTPayload, options?: SignJwtOptions): Promise<string>;
  /** Verifies a JWT (401 errors on failure) and returns its claims. */
  verifyJwt(token: string): Promise<JWTPayload>;
  /** Deletes expired sessions now (the plugin also does it on a timer). */
  sweepSessions(): Promise<number>;
}

/** Runs middleware in order, as koa-compose does (kept here to avoid a dependency for six lines). */
function compose(chain: readonly Middleware[]): Middleware {
  return (ctx: Context, next: Next) => {
    const run = (i: number): Promise<void> => Promise.resolve(i < chain.length ? chain[i]!(ctx, () => run(i + 1)) : next());
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
    const found = (ctx as unknown as { runtime?: HostRuntime }).runtime?.lookupRoute(ctx);
    const route = found?.route ?? found?.preflightFor;
    if (route && route.tags[CORS_TAG]) return next();
    return cors(ctx, next);
  };
}

/** A route that needs no CSRF token: `csrfExempt`, or `bearerAuth` (a header no other site can send). */
function csrfExemptRoute(route: Route): boolean {
  return route.tags[CSRF_EXEMPT_TAG] === true || route.tags[BEARER_AUTH_TAG] === true;
}

/** The options `securityPlugin` takes: the user hooks, a ready store, and every security config key. */
const PLUGIN_OPTION_KEYS: readonly string[] = Object.freeze([
  "loadUser", "userId", "rememberFingerprint", "sessionFingerprint", "onLogin", "onLogout", "sessionStore",
  ...Object.keys(SECURITY_CONFIG_KEYS),
]);

/** Builds the security plugin. */
export function securityPlugin<User = CurrentUser>(options: SecurityPluginOptions<User> = {}): SecurityPlugin {
  let runtime: SecurityRuntime | undefined;
  let store: SessionStore | undefined;
  let sweeper: NodeJS.Timeout | undefined;
  let forgetPolicy: (() => void) | undefined;
  // Checked when the plugin is made: a misspelt option would otherwise be silently ignored.
  checkOptionKeys("securityPlugin(options)", options, PLUGIN_OPTION_KEYS);
  const { loadUser, userId, rememberFingerprint, sessionFingerprint, onLogin, onLogout, sessionStore, ...configOptions } = options;
  const users: UserHooks = { loadUser, userId, rememberFingerprint, sessionFingerprint, onLogin, onLogout } as UserHooks;

  let storeOutage: OutageLog | undefined;
  // The rate limits' counters: the login limiter's (memory, the node's cluster primary, or Redis).
  let rates: { counter: AttemptCounter; overrides: ReadonlyMap<string, RateLimitOverride>; outage: OutageLog } | undefined;

  // One CORS middleware per route, shared by its requests and its preflights.
  const corsOfRoute = new WeakMap<Route, Middleware | undefined>();
  const routeCors = (route: Route): Middleware | undefined => {
    if (!corsOfRoute.has(route)) {
      const settings = route.tags[CORS_TAG] as CorsSettings | undefined;
      corsOfRoute.set(route, settings ? corsMiddleware(settings) : undefined);
    }
    return corsOfRoute.get(route);
  };

  const ready = (what: string): SecurityRuntime => {
    if (!runtime) throw new E_SECURITY_NOT_SET_UP(what);
    return runtime;
  };

  return {
    name: "security",
    configKeys: SECURITY_CONFIG_KEYS,
    // A mounted app answers its own requests: it must run its own CSRF check.
    requiredInMounts: true,

    get config() {
      return ready("securityPlugin().config").config;
    },

    get store() {
      ready("securityPlugin().store");
      return store;
    },

    async setup(context: PluginContext) {
      const log = context.logger;
      const config = resolveSecurityConfig(context.config, configOptions, (message) => log.warn(message));
      const secrets = [config.secretKey, ...config.secretKeyFallbacks];
      // Relative store paths resolve against the app folder (a build's is the one it was built from).
      const folder = (context.config as { readonly appDir?: unknown }).appDir ?? context.config["root"];
      const root = typeof folder === "string" ? folder : process.cwd();
      const sessionUrl = parseSessionUrl(config.sessionUrl, root);
      // One outage log per store: reconnect attempts and failing requests are counted, not logged one by one.
      store = sessionStore ?? (await createSessionStore(sessionUrl, { root, onConnectionError: (error) => storeOutage?.failed(error) }));
      storeOutage = outageLog({ logger: log, name: `security: the ${store?.kind ?? sessionUrl.kind} session store` });
      let limitOutage: OutageLog | undefined;
      // Under `start --workers N` the node's cluster primary keeps the counters, so the limits hold
      // for the node and not per worker; several nodes need Redis (loginLimitUrl or Redis sessions).
      let counter: AttemptCounter = clusterCounters() ?? new MemoryAttemptCounter();
      const limitUrl = config.loginLimitUrl ?? (sessionUrl.kind === "redis" ? config.sessionUrl : undefined);
      if (limitUrl) {
        if (!/^rediss?:\/\//.test(limitUrl)) throw new E_SECURITY_CONFIG_INVALID("loginLimitUrl", `expected a redis:// URL, got ${redactUrl(limitUrl)}`);
        const { RedisAttemptCounter } = await import("./login-limit-redis.js");
        const prefix = config.loginLimitUrl === undefined && sessionUrl.kind === "redis" ? `${sessionUrl.prefix}login-limit:` : undefined;
        const counterOutage = outageLog({ logger: log, name: "security: the redis login-limit counter" });
        limitOutage = counterOutage;
        counter = new RedisAttemptCounter(limitUrl, { ...(prefix ? { prefix } : {}), outage: counterOutage });
      }
      rates = {
        counter,
        overrides: resolveRateLimitOverrides(configOptions.rateLimits ?? (context.config as { rateLimits?: unknown }).rateLimits),
        outage: outageLog({ logger: log, name: "security: the rate-limit counters" }),
      };
      const passwords = passwordPolicyOf(config);
      runtime = Object.freeze({
        config,
        users,
        limiter: new LoginLimiter(
          counter,
          {
            account: config.loginLimitAccount,
            address: config.loginLimitAddress,
            windowSeconds: config.loginLimitWindow,
          },
          limitOutage,
        ),
        counter,
        jwt: await resolveJwtKeys(config),
        remember: createSigner(secrets, "remember-me"),
        passwords,
        dummyHash: dummyHash(passwords),
        csrfCookie: Object.freeze({
          // __Host-: only this exact host, over HTTPS, may set it (no sibling subdomain can plant one).
          name: config.cookieSecure ? `__Host-${config.csrfCookie}` : config.csrfCookie,
          secure: config.cookieSecure,
          signer: createSigner(secrets, "csrf-cookie"),
        }),
      });
      forgetPolicy = registerPasswordPolicy(passwords);
      if (store && config.sessionSweepInterval > 0 && store.kind !== "redis") {
        const sweepStore = store;
        sweeper = setInterval(() => {
          sweepStore.sweep().catch((error: unknown) => log.warn({ err: error }, `security: sweeping expired ${sweepStore.kind} sessions failed`));
        }, config.sessionSweepInterval * 1000);
        sweeper.unref();
      }
      log.info(`security: ${store ? `${store.kind} sessions` : "signed cookie sessions"}, passwords ${config.passwordAlgorithm}, JWT ${config.jwtAlgorithm}`);
    },

    middleware() {
      const rt = ready("securityPlugin().middleware()");
      const { config } = rt;
      const headers = config.securityHeaders !== false ? securityHeaders(config.securityHeaders, config.env === "production") : undefined;
      // Fail closed: every unsafe request is checked here, before other plugins, hand-written
      // routes and views, unless its view route is exempt or its path is in csrfExemptPaths.
      const csrf = csrfGuard({ exemptRoute: csrfExemptRoute, exemptPaths: config.csrfExemptPaths });
      // Three layers (each layer costs every request its share): the runtime, the
      // password policy and the headers; CORS (when on), before the session so a preflight is
      // answered without touching the session store; the session; then the current user and the CSRF check.
      const chain: Middleware[] = [
        (ctx, next) => {
          attachRuntime(ctx, rt);
          // The free hashPassword()/needsRehash() (fw-a's security.*, fw-b's exports) read this
          // app's policy. Not an async function: one promise less per request.
          if (headers && !headers.apply(ctx)) return headers.middleware(ctx, () => withPasswordPolicy(rt.passwords, next));
          return withPasswordPolicy(rt.passwords, next);
        },
      ];
      if (config.cors !== false) chain.push(appCors(corsMiddleware(config.cors)));
      chain.push(
        sessionMiddleware({
          secrets: [config.secretKey, ...config.secretKeyFallbacks],
          cookieName: config.sessionCookie,
          maxAge: config.sessionMaxAge,
          anonymousMaxAge: config.sessionAnonymousMaxAge,
          secure: config.cookieSecure,
          ...(store ? { store, ...(storeOutage ? { storeOutage } : {}) } : {}),
        }),
        (ctx, next) => {
          const loading = loadCurrentUserStep(ctx);
          return loading ? loading.then(() => csrf(ctx, next)) : csrf(ctx, next);
        },
      );
      return chain;
    },

    routeMiddleware(route: Route) {
      const rt = ready("securityPlugin().routeMiddleware()");
      const tags = route.tags;
      const chain: Middleware[] = [];
      const cors = routeCors(route);
      if (cors) chain.push(cors);
      if (tags[BEARER_AUTH_TAG] === true) chain.push(bearerAuthMiddleware());
      if (tags[LOGIN_REQUIRED_TAG] === true) {
        if (!rt.users.loadUser) {
          throw new E_SECURITY_CONFIG_INVALID("loadUser", `${route.id} is @loginRequired but securityPlugin() was given no loadUser(id)`);
        }
        chain.push(loginRequiredMiddleware(route));
      }
      // Last: a request refused earlier (not logged in, no token) is not counted.
      const limits = rates ? routeRateLimits(route, rates.overrides) : [];
      if (rates && limits.length > 0) chain.push(rateLimitMiddleware(limits, rates.counter, rates.outage));
      if (chain.length === 0) return undefined;
      return chain.length === 1 ? chain[0] : compose(chain);
    },

    preflightMiddleware(route: Route) {
      return routeCors(route);
    },

    // The OpenAPI document's security schemes and each guarded route's 401/403.
    openApi() {
      return securityOpenApi(ready("securityPlugin().openApi()").config);
    },

    locals(ctx: Context) {
      return {
        // A page for a request that never reached the session middleware (an error page for a
        // static-file probe) has no session to hold a token: it gets none, and a form posted from it
        // is refused like any other without a token.
        csrf_token: () => (hasSession(ctx) ? csrfToken(ctx) : ""),
        current_user: ctx.state["currentUser"] ?? null,
      };
    },

    hashPassword: (password) => hashPassword(password, ready("hashPassword()").passwords),
    verifyPassword: (password, stored) => verifyPassword(password, stored),
    needsRehash: (stored) => needsRehash(stored, ready("needsRehash()").passwords),
    signJwt: (claims, signOptions) => signJwt(claims, ready("signJwt()").jwt, signOptions),
    verifyJwt: (token) => verifyJwt(token, ready("verifyJwt()").jwt),
    sweepSessions: async () => (store ? store.sweep() : 0),

    // Readiness (/readyz): the session store answers a read (cookie sessions have no store). Not
    // required: a shared store that is down would take every node out at once, while pages
    // without a session still work; requests that need a session answer 503 meanwhile.
    readiness: () =>
      store
        ? [
            {
              name: "sessions",
              required: false,
              async check() {
                try {
                  await store!.get("fw-readyz-probe");
                } catch (error) {
                  throw new E_NOT_READY("the session store", (error as Error).message);
                }
              },
            },
          ]
        : [],

    async close() {
      if (sweeper) clearInterval(sweeper);
      sweeper = undefined;
      forgetPolicy?.();
      forgetPolicy = undefined;
      await runtime?.limiter.close();
      if (store && !sessionStore) await store.close();
    },
  };
}

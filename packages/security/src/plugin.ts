/**
 * `securityPlugin(options)`: everything in this package as one koa-host plugin. App-wide
 * middleware (security headers, CORS, session, current user), per-route middleware decided at
 * start-up from tags (per-view CORS, bearer auth, CSRF unless exempt, login required), template
 * locals (`csrf_token()`, `current_user`), and bound helpers for passwords and JWTs.
 */
import type { Context } from "koa";
import type { JWTPayload } from "jose";
import { E_NOT_READY, type HostPlugin, type PluginContext } from "@fwkit/koa-host/plugin";
import { checkOptionKeys, type Route } from "routing-kernel";
import { SECURITY_CONFIG_KEYS, type CorsSettings, type SecurityConfig } from "./config.js";
import { securityConfigSchema } from "./config-schema.js";
import { csrfToken } from "./csrf.js";
import { newIdempotencyKey } from "./idempotency/index.js";
import { E_SECURITY_NOT_SET_UP } from "./errors.js";
import { signJwt, verifyJwt, type SignJwtOptions } from "./jwt.js";
import type { RateLimitOverride } from "./rate-limit.js";
import { securityOpenApi } from "./openapi.js";
import { hashPassword, needsRehash, verifyPassword } from "./passwords.js";
import { appMiddleware, routeCorsCache, routeMiddlewareOf } from "./plugin-middleware.js";
import { setUpSecurity, type SecuritySetup } from "./plugin-setup.js";
import type { SecurityRuntime, UserHooks } from "./runtime.js";
import type { CurrentUser } from "./user-type.js";
import { hasSession } from "./session.js";
import type { SessionStore } from "./stores/store.js";
import { currentUserSlot } from "./request-state.js";

/** Options of {@link securityPlugin}: any security config key (wins over the app config) plus the user hooks. */
export interface SecurityPluginOptions<User = CurrentUser>
  extends UserHooks<User>,
    Partial<Omit<SecurityConfig, "cors">> {
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

/** The options `securityPlugin` takes: the user hooks, a ready store, and every security config key. */
const PLUGIN_OPTION_KEYS: readonly string[] = Object.freeze([
  "loadUser",
  "userId",
  "rememberFingerprint",
  "sessionFingerprint",
  "onLogin",
  "onLogout",
  "sessionStore",
  ...Object.keys(SECURITY_CONFIG_KEYS),
]);

/** The keys of a block given as an option (`idempotency`), checked against the schema's block. */
function checkBlockKeys(options: object): void {
  for (const [name, spec] of Object.entries(securityConfigSchema.shape)) {
    const value = (options as Readonly<Record<string, unknown>>)[name];
    if (spec.keys && !spec.checkOnly && typeof value === "object" && value !== null && !Array.isArray(value))
      checkOptionKeys(`securityPlugin(options).${name}`, value as Record<string, unknown>, Object.keys(spec.keys));
  }
}

/** Builds the security plugin. */
export function securityPlugin<User = CurrentUser>(options: SecurityPluginOptions<User> = {}): SecurityPlugin {
  // Checked when the plugin is made: a misspelt option would otherwise be silently ignored.
  checkOptionKeys("securityPlugin(options)", options, PLUGIN_OPTION_KEYS);
  checkBlockKeys(options);
  const {
    loadUser,
    userId,
    rememberFingerprint,
    sessionFingerprint,
    onLogin,
    onLogout,
    sessionStore,
    ...configOptions
  } = options;
  const users: UserHooks = {
    loadUser,
    userId,
    rememberFingerprint,
    sessionFingerprint,
    onLogin,
    onLogout,
  } as UserHooks;
  let state: SecuritySetup | undefined;
  const routeCors = routeCorsCache();

  const ready = (what: string): SecurityRuntime => {
    if (!state) throw new E_SECURITY_NOT_SET_UP(what);
    return state.runtime;
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
      return state?.store;
    },

    async setup(context: PluginContext) {
      state = await setUpSecurity(context, { config: configOptions, users, ...(sessionStore ? { sessionStore } : {}) });
    },

    phases: {
      request() {
        const rt = ready("securityPlugin() phases.request");
        return appMiddleware(rt, state?.store, state?.storeOutage);
      },

      route(route: Route) {
        const rt = ready("securityPlugin() phases.route");
        return routeMiddlewareOf(route, rt, routeCors(route), state?.rates, state?.idempotency.routeMiddleware(route));
      },

      preflight(route: Route) {
        return routeCors(route);
      },
    },

    // The OpenAPI document's security schemes and each guarded route's 401/403.
    openApi() {
      return securityOpenApi(ready("securityPlugin().openApi()").config);
    },

    // The request log line names the logged-in user by id: the host asks, it never reads the slot.
    requestLogFields: () => logUserId,

    locals(ctx: Context) {
      return {
        // A page for a request that never reached the session middleware (an error page for a
        // static-file probe) has no session to hold a token: it gets none, and a form posted from it
        // is refused like any other without a token.
        csrf_token: () => (hasSession(ctx) ? csrfToken(ctx) : ""),
        // A fresh key per form rendering: a double submit or a retried POST repeats it.
        idempotency_key: newIdempotencyKey,
        current_user: currentUserSlot.get(ctx) ?? null,
      };
    },

    hashPassword: (password) => hashPassword(password, ready("hashPassword()").passwords),
    verifyPassword: (password, stored) => verifyPassword(password, stored),
    needsRehash: (stored) => needsRehash(stored, ready("needsRehash()").passwords),
    signJwt: (claims, signOptions) => signJwt(claims, ready("signJwt()").jwt, signOptions),
    verifyJwt: (token) => verifyJwt(token, ready("verifyJwt()").jwt),
    sweepSessions: async () => (state?.store ? state.store.sweep() : 0),

    // Readiness (/readyz): the session store answers a read (cookie sessions have no store). Not
    // required: a shared store that is down would take every node out at once, while pages
    // without a session still work; requests that need a session answer 503 meanwhile.
    readiness: () => {
      const store = state?.store;
      if (!store) return [];
      const check = async () => {
        try {
          await store.get("fw-readyz-probe");
        } catch (error) {
          throw new E_NOT_READY("the session store", (error as Error).message);
        }
      };
      return [{ name: "sessions", required: false, check }];
    },

    async close() {
      const closing = state;
      if (!closing) return;
      closing.stop();
      await closing.runtime.limiter.close();
      await closing.idempotency.close();
      if (closing.store && !sessionStore) await closing.store.close();
    },
  };
}

/** The request log line's `userId`: the logged-in user's `id`, nothing for an anonymous request. */
function logUserId(ctx: Context): Readonly<Record<string, unknown>> | undefined {
  const user = currentUserSlot.get(ctx) as { id?: unknown } | null | undefined;
  return user === null || user === undefined ? undefined : { userId: user.id };
}

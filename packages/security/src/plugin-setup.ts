/**
 * The security plugin's start-up: the resolved config, the session store, the login and rate
 * limits' counters, JWT keys, the CSRF cookie's signer and the password policy, made once and kept
 * as the {@link SecurityRuntime} every request reaches.
 */
import { clusterCounters, outageLog, type OutageLog } from "@fwkit/battery-kit";
import type { PluginContext } from "@fwkit/koa-host/plugin";
import { resolveSecurityConfig, type SecurityConfigInput } from "./config.js";
import { E_SECURITY_CONFIG_INVALID } from "./errors.js";
import { setUpIdempotency, type Idempotency } from "./idempotency/index.js";
import { resolveJwtKeys } from "./jwt.js";
import { LoginLimiter, MemoryAttemptCounter, type AttemptCounter } from "./login-limit.js";
import { resolveRateLimitOverrides, type RateLimitOverride } from "./rate-limit.js";
import { passwordPolicyOf, registerPasswordPolicy } from "./password-policy.js";
import { dummyHash } from "./passwords.js";
import type { SecurityRuntime, UserHooks } from "./runtime.js";
import { parseSessionUrl, redactUrl, type SessionUrl } from "./session-url.js";
import { createSigner } from "./signing.js";
import { createSessionStore } from "./stores/create.js";
import type { SessionStore } from "./stores/store.js";

/** The rate limits' counters and the app's retuned limits. */
export interface RateCounters {
  readonly counter: AttemptCounter;
  readonly overrides: ReadonlyMap<string, RateLimitOverride>;
  readonly outage: OutageLog;
}

/** What the plugin made at start-up, and what it releases at shutdown. */
export interface SecuritySetup {
  readonly runtime: SecurityRuntime;
  /** The server-side session store, `undefined` for cookie sessions. */
  readonly store: SessionStore | undefined;
  readonly storeOutage: OutageLog | undefined;
  readonly rates: RateCounters;
  /** Idempotency keys (the `idempotency` block and `@idempotent` routes). */
  readonly idempotency: Idempotency;
  /** Stops the sweeper of expired sessions and forgets the password policy. */
  stop(): void;
}

/** What {@link setUpSecurity} takes from the plugin's options. */
export interface SecuritySetupOptions {
  /** Config keys given to `securityPlugin()` (they win over the app's config). */
  readonly config: SecurityConfigInput & { readonly rateLimits?: unknown };
  readonly users: UserHooks;
  /** A ready session store, used instead of the one `sessionUrl` names. */
  readonly sessionStore?: SessionStore;
}

/** Sets the security battery up for one app (see the module comment). */
export async function setUpSecurity(context: PluginContext, options: SecuritySetupOptions): Promise<SecuritySetup> {
  const log = context.logger;
  const config = resolveSecurityConfig(context.config, options.config, (message) => log.warn(message));
  const secrets = [config.secretKey, ...config.secretKeyFallbacks];
  // Relative store paths resolve against the app folder (a build's is the one it was built from).
  const folder = (context.config as { readonly appDir?: unknown }).appDir ?? context.config["root"];
  const root = typeof folder === "string" ? folder : process.cwd();
  const sessionUrl = parseSessionUrl(config.sessionUrl, root);
  // One outage log per store: reconnect attempts and failing requests are counted, not logged one by one.
  let storeOutage: OutageLog | undefined;
  const store =
    options.sessionStore ??
    (await createSessionStore(sessionUrl, { root, onConnectionError: (error) => storeOutage?.failed(error) }));
  storeOutage = outageLog({ logger: log, name: `security: the ${store?.kind ?? sessionUrl.kind} session store` });
  const limits = await limitCounter(context, config.loginLimitUrl, config.sessionUrl, sessionUrl);
  const rates: RateCounters = {
    counter: limits.counter,
    overrides: resolveRateLimitOverrides(
      options.config.rateLimits ?? (context.config as { rateLimits?: unknown }).rateLimits,
    ),
    outage: outageLog({ logger: log, name: "security: the rate-limit counters" }),
  };
  const passwords = passwordPolicyOf(config);
  const runtime: SecurityRuntime = Object.freeze({
    config,
    users: options.users,
    limiter: new LoginLimiter(
      limits.counter,
      { account: config.loginLimitAccount, address: config.loginLimitAddress, windowSeconds: config.loginLimitWindow },
      limits.outage,
    ),
    counter: limits.counter,
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
  const idempotency = setUpIdempotency(context, config.idempotency, sessionUrl, [
    config.sessionCookie,
    runtime.csrfCookie.name,
    config.rememberCookie,
  ]);
  let forgetPolicy: (() => void) | undefined = registerPasswordPolicy(passwords);
  let sweeper: NodeJS.Timeout | undefined;
  if (store && config.sessionSweepInterval > 0 && store.kind !== "redis") {
    const sweepStore = store;
    sweeper = setInterval(() => {
      sweepStore
        .sweep()
        .catch((error: unknown) =>
          log.warn({ err: error }, `security: sweeping expired ${sweepStore.kind} sessions failed`),
        );
    }, config.sessionSweepInterval * 1000);
    sweeper.unref();
  }
  log.info(
    `security: ${store ? `${store.kind} sessions` : "signed cookie sessions"}, passwords ${config.passwordAlgorithm}, JWT ${config.jwtAlgorithm}`,
  );
  return {
    runtime,
    store,
    storeOutage,
    rates,
    idempotency,
    stop() {
      if (sweeper) clearInterval(sweeper);
      sweeper = undefined;
      forgetPolicy?.();
      forgetPolicy = undefined;
    },
  };
}

/**
 * The login and rate limits' counter: under `start --workers N` the node's cluster primary keeps
 * the counters, so the limits hold for the node and not per worker; several nodes need Redis
 * (`loginLimitUrl`, or Redis sessions, whose server then keeps them under the sessions' prefix).
 */
async function limitCounter(
  context: PluginContext,
  loginLimitUrl: string | undefined,
  sessionUrlText: string,
  sessionUrl: SessionUrl,
): Promise<{ counter: AttemptCounter; outage: OutageLog | undefined }> {
  const local = clusterCounters() ?? new MemoryAttemptCounter();
  const limitUrl = loginLimitUrl ?? (sessionUrl.kind === "redis" ? sessionUrlText : undefined);
  if (!limitUrl) return { counter: local, outage: undefined };
  if (!/^rediss?:\/\//.test(limitUrl))
    throw new E_SECURITY_CONFIG_INVALID("loginLimitUrl", `expected a redis:// URL, got ${redactUrl(limitUrl)}`);
  const { RedisAttemptCounter } = await import("./login-limit-redis.js");
  const prefix =
    loginLimitUrl === undefined && sessionUrl.kind === "redis" ? `${sessionUrl.prefix}login-limit:` : undefined;
  const outage = outageLog({ logger: context.logger, name: "security: the redis login-limit counter" });
  return { counter: new RedisAttemptCounter(limitUrl, { ...(prefix ? { prefix } : {}), outage }), outage };
}

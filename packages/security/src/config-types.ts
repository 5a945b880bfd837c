/**
 * The security battery's keys in an app's config, added to `AppConfig` of `@fwkit/koa-host` by
 * module augmentation (the way Fastify and AdonisJS type their plugins), so `defineConfig({...})`
 * knows them and a misspelt key is a compile error. `SECURITY_CONFIG_KEYS` (config.ts) declares the
 * same keys for the start-up check; a compile-time check below keeps the two lists equal.
 * `env`, `secretKey` and `sessionUrl` are the host's keys, typed there.
 */
// The module augmented below must be part of the program.
import type {} from "@fwkit/koa-host";
import type { ConfigKeysAgree } from "@fwkit/koa-host/plugin";
import type { CorsSettings, JwtAlgorithm, PasswordAlgorithm, SECURITY_CONFIG_KEYS } from "./config.js";
import type { IdempotencyConfigInput } from "./idempotency/config.js";

/** The config keys the security battery reads, as an app writes them (see docs/security.md). */
export interface SecurityAppConfig {
  /** Older secret keys still accepted when verifying (key rotation). */
  readonly secretKeyFallbacks?: readonly string[];
  /** Name of the session cookie (default `session`). */
  readonly sessionCookie?: string;
  /** Session lifetime in seconds (default one day). */
  readonly sessionMaxAge?: number;
  /** Lifetime in seconds of a stored session nobody is logged in to (default two hours). */
  readonly sessionAnonymousMaxAge?: number;
  /** Name of the signed CSRF cookie of visitors who are not logged in (default `csrf`; `__Host-csrf` when cookies are Secure). */
  readonly csrfCookie?: string;
  /** Seconds between sweeps of expired sessions; 0 disables the timer. */
  readonly sessionSweepInterval?: number;
  /** Mark cookies `Secure` (default: in production). */
  readonly cookieSecure?: boolean;
  /** Where `loginRequired` sends HTML clients (default `/login`). */
  readonly loginUrl?: string;
  /** Name of the remember-me cookie. */
  readonly rememberCookie?: string;
  /** Remember-me lifetime in seconds. */
  readonly rememberMaxAge?: number;
  /** Failed logins allowed per account within the window. */
  readonly loginLimitAccount?: number;
  /** Failed logins allowed per client address within the window. */
  readonly loginLimitAddress?: number;
  /** The failed-login window, in seconds. */
  readonly loginLimitWindow?: number;
  /** Redis URL for failed-login counters. */
  readonly loginLimitUrl?: string;
  /** `bcrypt` (default) or `argon2id`. */
  readonly passwordAlgorithm?: PasswordAlgorithm;
  /** bcrypt cost (log2 rounds), 4..31. */
  readonly bcryptCost?: number;
  /** argon2id memory in KiB. */
  readonly argon2MemoryCost?: number;
  /** argon2id passes. */
  readonly argon2TimeCost?: number;
  /** argon2id lanes. */
  readonly argon2Parallelism?: number;
  /** `HS256` (default), `RS256` or `EdDSA`. */
  readonly jwtAlgorithm?: JwtAlgorithm;
  /** HS256 secret; default: derived from `secretKey`. */
  readonly jwtSecret?: string;
  /** PEM (PKCS#8) private key for RS256/EdDSA signing. */
  readonly jwtPrivateKey?: string;
  /** PEM (SPKI) public key for RS256/EdDSA verification. */
  readonly jwtPublicKey?: string;
  /** `iss` set when signing and required when verifying. */
  readonly jwtIssuer?: string;
  /** `aud` set when signing and required when verifying. */
  readonly jwtAudience?: string;
  /** Default token lifetime: seconds, or a time span such as `"1h"`. */
  readonly jwtExpiresIn?: number | string;
  /** App-wide CORS; `false` (default) sends no CORS headers. */
  readonly cors?: CorsSettings | false;
  /** Paths outside view routes that need no CSRF token (`/hooks/stripe`, `/hooks/*`). */
  readonly csrfExemptPaths?: readonly string[];
  /** koa-helmet options; `false` turns the security headers off. */
  readonly securityHeaders?: Readonly<Record<string, unknown>> | false;
  /**
   * Named `rateLimit` limits retuned (`{ max: 10, window: "1h" }`) or switched off (`false`), by
   * the `name` their decorator gives (the contrib forms' `lost-password`, `contact`...).
   */
  readonly rateLimits?: Readonly<Record<string, { readonly max?: number; readonly window?: number | string } | false>>;
  /**
   * Idempotency keys: `{ unsafeMethods: true }` makes every POST, PUT, PATCH and DELETE of a view
   * route honour an `Idempotency-Key` (else only `@idempotent` routes); `ttl` in seconds (one day);
   * `url` Redis or `memory:` (default: the sessions' Redis, else memory).
   */
  readonly idempotency?: IdempotencyConfigInput;
}

// Compile-time: SECURITY_CONFIG_KEYS (the start-up check's declaration) lists exactly these keys.
const typedKeysAgree: ConfigKeysAgree<typeof SECURITY_CONFIG_KEYS, SecurityAppConfig> = true;
void typedKeysAgree;

declare module "@fwkit/koa-host" {
  // eslint-disable-next-line @typescript-eslint/no-empty-interface -- the merge is the point
  interface AppConfig extends SecurityAppConfig {}
}

/**
 * The security battery's config keys, declared once: the app-facing type (`SecurityAppConfig`,
 * added to `AppConfig` of `@fwkit/koa-host` by module augmentation, so a misspelt key is a compile
 * error), the resolved type (`SecurityConfig`), the start-up check of unknown keys, the defaults,
 * the reading of environment strings and the rows of docs/configuration.md all follow from it.
 * `env` and `secretKey` are the host's keys, typed there; config.ts adds the rules that join keys.
 */
// The module augmented below must be part of the program.
import type {} from "@fwkit/koa-host";
import { defineConfigSchema, type InputOf, key, type ReadContext } from "@fwkit/koa-host/config-schema";
import { E_SECURITY_CONFIG_INVALID } from "./errors.js";
import { CORS_KEYS, type CorsSettings } from "./cors-settings.js";

const DAY = 24 * 60 * 60;
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const SPAN =
  /^\d+\s*(s|sec|secs|second|seconds|m|min|mins|minute|minutes|h|hr|hrs|hour|hours|d|day|days|w|week|weeks)$/i;

/** A named rate limit retuned (`{ max: 10, window: "1h" }`) or switched off (`false`). */
export type RateLimitSetting = { readonly max?: number; readonly window?: number | string } | false;

function shown(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function cookieName(doc: string, fallback: string) {
  return key.string({ doc, default: fallback, pattern: COOKIE_NAME, expected: "a valid cookie name" });
}

function expiresIn(value: unknown, context: ReadContext): number | string {
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  if (typeof value === "string" && /^\d+$/.test(value)) return Number(value);
  if (typeof value === "string" && SPAN.test(value)) return value;
  return context.invalid(context.path, 'seconds or a span such as "15m", "1h", "7d"', value);
}

function helmetOptions(value: unknown, context: ReadContext): Readonly<Record<string, unknown>> | false {
  if (value === false) return false;
  if (typeof value !== "object") return context.invalid(context.path, "koa-helmet options or false", value);
  return value as Readonly<Record<string, unknown>>;
}

/** The security battery's config keys (app config, or options of `securityPlugin`, which win). */
export const securityConfigSchema = defineConfigSchema(
  {
    secretKeyFallbacks: key.list({
      doc: "Older secret keys still accepted when verifying (key rotation).",
      default: [],
      nonEmpty: true,
      secret: true,
    }),
    sessionUrl: key.string({
      doc: "Where sessions live: `cookie`, `memory:`, `redis://`, `postgres://`, `mysql://`, `sqlite:`, `s3://`.",
      default: "cookie",
    }),
    sessionCookie: cookieName("Name of the session cookie.", "session"),
    sessionMaxAge: key.int({ doc: "Session lifetime in seconds (one day).", default: DAY, min: 1 }),
    sessionAnonymousMaxAge: key.int({
      doc: "Lifetime in seconds of a stored session nobody is logged in to (two hours).",
      default: 2 * 60 * 60,
      min: 1,
    }),
    csrfCookie: cookieName(
      "Name of the signed CSRF cookie of visitors who are not logged in (`__Host-csrf` when cookies are Secure).",
      "csrf",
    ),
    sessionSweepInterval: key.int({
      doc: "Seconds between sweeps of expired sessions (SQL, S3, memory); 0 disables the timer.",
      default: 600,
      min: 0,
    }),
    cookieSecure: key.bool({
      doc: "Mark cookies `Secure`.",
      default: (config) => config["env"] === "production",
      defaultText: "`true` in production",
    }),
    loginUrl: key.string({ doc: "Where `loginRequired` sends HTML clients.", default: "/login" }),
    rememberCookie: cookieName("Name of the remember-me cookie.", "remember_token"),
    rememberMaxAge: key.int({ doc: "Remember-me lifetime in seconds (30 days).", default: 30 * DAY, min: 1 }),
    loginLimitAccount: key.int({ doc: "Failed logins allowed per account within the window.", default: 5, min: 1 }),
    loginLimitAddress: key.int({
      doc: "Failed logins allowed per client address within the window.",
      default: 20,
      min: 1,
    }),
    loginLimitWindow: key.int({ doc: "The failed-login window, in seconds.", default: 15 * 60, min: 1 }),
    loginLimitUrl: key.string({
      doc: "Redis URL for failed-login counters; default: the session URL when it is Redis, else memory.",
    }),
    passwordAlgorithm: key.oneOf(["bcrypt", "argon2id"], { doc: "Password hashing algorithm.", default: "bcrypt" }),
    bcryptCost: key.int({ doc: "bcrypt cost (log2 rounds).", default: 12, min: 4, max: 31 }),
    argon2MemoryCost: key.int({ doc: "argon2id memory in KiB.", default: 19456, min: 8 }),
    argon2TimeCost: key.int({ doc: "argon2id passes.", default: 2, min: 1 }),
    argon2Parallelism: key.int({ doc: "argon2id lanes.", default: 1, min: 1, max: 255 }),
    jwtAlgorithm: key.oneOf(["HS256", "RS256", "EdDSA"], { doc: "JWT signature algorithm.", default: "HS256" }),
    jwtSecret: key.string({ doc: "HS256 secret; default: derived from `secretKey`.", secret: true }),
    jwtPrivateKey: key.string({ doc: "PEM (PKCS#8) private key for RS256/EdDSA signing.", secret: true }),
    jwtPublicKey: key.string({ doc: "PEM (SPKI) public key for RS256/EdDSA verification." }),
    jwtIssuer: key.string({ doc: "`iss` set when signing and required when verifying." }),
    jwtAudience: key.string({ doc: "`aud` set when signing and required when verifying." }),
    jwtExpiresIn: key.custom<number | string>({
      doc: 'Default token lifetime: seconds, or a time span such as `"1h"`.',
      kind: "seconds or a span",
      default: "1h",
      read: expiresIn,
    }),
    cors: key.custom<CorsSettings | false>({
      doc: "App-wide CORS (docs/security.md); `false` sends no CORS headers.",
      kind: "CORS settings or false",
      default: false,
      keys: CORS_KEYS,
      // Checked in full by validateCors (config.ts), shared with `@cors(options)`.
      read: (value, context) =>
        typeof value === "object" || value === false
          ? (value as CorsSettings | false)
          : context.invalid(context.path, "an object or false", value),
    }),
    csrfExemptPaths: key.list({
      doc: 'Paths outside view routes that need no CSRF token: `"/hooks/stripe"` exactly, `"/hooks/*"` under it.',
      default: [],
      nonEmpty: true,
      item: /^\/[^*?#\s]*(\/\*)?$/,
      expected: 'paths such as "/hooks/stripe" or "/hooks/*" (a * only as the last segment)',
    }),
    securityHeaders: key.custom<Readonly<Record<string, unknown>> | false>({
      doc: "koa-helmet options (checked by koa-helmet); `false` turns the security headers off.",
      kind: "koa-helmet options or false",
      default: {},
      defaultText: "`{}`",
      read: helmetOptions,
    }),
    rateLimits: key.custom<Readonly<Record<string, RateLimitSetting>>, unknown>({
      doc: 'Named `rateLimit` limits retuned (`{ max: 10, window: "1h" }`) or switched off (`false`), by name.',
      kind: "object of limits",
      // Checked by the plugin at start-up against the limits the app declares (rate-limit.ts).
      read: (value) => value,
    }),
    idempotency: key.block(
      {
        unsafeMethods: key.bool({
          doc: "Every POST, PUT, PATCH and DELETE to a view route honours an `Idempotency-Key` (else only `@idempotent` routes).",
          default: false,
        }),
        ttl: key.int({ doc: "Seconds a key and its answer are kept (one day).", default: DAY, min: 1, max: 30 * DAY }),
        url: key.string({
          doc: "Where keys are kept: `redis://host:port/db?prefix=...` or `memory:`; default: the session store's Redis when sessions are in Redis, else memory.",
          pattern: /^(?:rediss?:\/\/.+|memory:?)$/,
          expected: '"redis://host:port/db" or "memory:"',
        }),
      },
      { doc: "Idempotency keys of unsafe requests (docs/security.md)." },
    ),
  },
  {
    invalid: (path, expected, value) =>
      new E_SECURITY_CONFIG_INVALID(path, `expected ${expected}, got ${shown(value)}`),
    alsoReads: ["env", "secretKey"],
  },
);

/** The config keys the security battery reads, as an app writes them (see docs/security.md). */
export interface SecurityAppConfig extends Omit<InputOf<typeof securityConfigSchema>, "sessionUrl"> {}

/** The `idempotency` block as an app writes it. */
export interface IdempotencyConfigInput extends IdempotencyInput {}

type IdempotencyInput = NonNullable<InputOf<typeof securityConfigSchema>["idempotency"]>;

declare module "@fwkit/koa-host" {
  // eslint-disable-next-line @typescript-eslint/no-empty-interface -- the merge is the point
  interface AppConfig extends SecurityAppConfig {}
}

/**
 * The security package's configuration: which keys it reads from the app config, their defaults,
 * and their validation. Everything is resolved once at start-up.
 */
import { randomBytes } from "node:crypto";
import { assertStrongSecret } from "@fwkit/koa-host/plugin";
import { checkOptionKeys } from "routing-kernel";
import { E_SECURITY_CONFIG_INVALID, E_SECURITY_SECRET_KEY_MISSING } from "./errors.js";
import { IDEMPOTENCY_KEYS } from "./idempotency/config.js";

/** Password hashing algorithms `hashPassword` can produce. */
export type PasswordAlgorithm = "bcrypt" | "argon2id";

/** JWT signature algorithms `signJwt` can use. */
export type JwtAlgorithm = "HS256" | "RS256" | "EdDSA";

/** App-wide CORS settings (`cors` config key); per-view settings use the same shape. */
export interface CorsSettings {
  /** Allowed origins: a list of exact origins, or `"*"` for any (default `"*"`). */
  readonly origins?: readonly string[] | "*";
  /** One allowed origin (`"https://app.example.com"`), the same as `origins: [origin]`. */
  readonly origin?: string;
  /** Send `Access-Control-Allow-Credentials: true` (not allowed with `"*"`). */
  readonly credentials?: boolean;
  readonly allowMethods?: readonly string[];
  readonly allowHeaders?: readonly string[];
  readonly exposeHeaders?: readonly string[];
  /** Preflight cache, in seconds. */
  readonly maxAge?: number;
}

/** The security config keys (app config, or options of `securityPlugin`, which win). */
export interface SecurityConfig {
  /** `production` turns on Secure cookies and HSTS. */
  readonly env: string;
  /** Signs session cookies, CSRF tokens, remember-me cookies and HS256 JWTs. */
  readonly secretKey: string;
  /** Older secret keys still accepted when verifying (key rotation). */
  readonly secretKeyFallbacks: readonly string[];
  /** Where sessions live: `cookie` (default), `memory:`, `redis://`, `postgres://`, `mysql://`, `sqlite:`, `s3://`. */
  readonly sessionUrl: string;
  /** Name of the session cookie. */
  readonly sessionCookie: string;
  /** Session lifetime in seconds. */
  readonly sessionMaxAge: number;
  /** Lifetime in seconds of a stored session nobody is logged in to (at most `sessionMaxAge`). */
  readonly sessionAnonymousMaxAge: number;
  /** Name of the signed cookie that carries a visitor's CSRF secret (`__Host-` prefixed when cookies are Secure). */
  readonly csrfCookie: string;
  /** Seconds between sweeps of expired sessions (SQL, S3, memory); 0 disables the timer. */
  readonly sessionSweepInterval: number;
  /** Mark cookies `Secure` (default: in production). */
  readonly cookieSecure: boolean;
  /** Where `loginRequired` sends HTML clients. */
  readonly loginUrl: string;
  /** Name of the remember-me cookie. */
  readonly rememberCookie: string;
  /** Remember-me lifetime in seconds. */
  readonly rememberMaxAge: number;
  /** Failed logins allowed per account within the window. */
  readonly loginLimitAccount: number;
  /** Failed logins allowed per client address within the window. */
  readonly loginLimitAddress: number;
  /** The failed-login window, in seconds. */
  readonly loginLimitWindow: number;
  /** Redis URL for failed-login counters; default: the session URL when it is Redis, else memory. */
  readonly loginLimitUrl: string | undefined;
  /** `bcrypt` (default) or `argon2id`. */
  readonly passwordAlgorithm: PasswordAlgorithm;
  /** bcrypt cost (log2 rounds), 4..31. */
  readonly bcryptCost: number;
  /** argon2id memory in KiB. */
  readonly argon2MemoryCost: number;
  /** argon2id passes. */
  readonly argon2TimeCost: number;
  /** argon2id lanes. */
  readonly argon2Parallelism: number;
  /** `HS256` (default), `RS256` or `EdDSA`. */
  readonly jwtAlgorithm: JwtAlgorithm;
  /** HS256 secret; default: derived from `secretKey`. */
  readonly jwtSecret: string | undefined;
  /** PEM (PKCS#8) private key for RS256/EdDSA signing. */
  readonly jwtPrivateKey: string | undefined;
  /** PEM (SPKI) public key for RS256/EdDSA verification. */
  readonly jwtPublicKey: string | undefined;
  /** `iss` set when signing and required when verifying. */
  readonly jwtIssuer: string | undefined;
  /** `aud` set when signing and required when verifying. */
  readonly jwtAudience: string | undefined;
  /** Default token lifetime: seconds, or a jose time span such as `"1h"`. */
  readonly jwtExpiresIn: number | string;
  /** App-wide CORS; `false` (default) sends no CORS headers. */
  readonly cors: CorsSettings | false;
  /**
   * Paths answered outside view routes (hand-written routes, plugin routes) that need no CSRF
   * token: `/hooks/stripe` exactly, or `/hooks/*` for every path under `/hooks/`.
   */
  readonly csrfExemptPaths: readonly string[];
  /** koa-helmet options; `false` turns the security headers off. */
  readonly securityHeaders: Record<string, unknown> | false;
}

const DAY = 24 * 60 * 60;

/** The defaults of every key except `env` and `secretKey`. */
export const SECURITY_DEFAULTS = Object.freeze({
  secretKeyFallbacks: [] as readonly string[],
  sessionUrl: "cookie",
  sessionCookie: "session",
  sessionMaxAge: DAY,
  sessionAnonymousMaxAge: 2 * 60 * 60,
  csrfCookie: "csrf",
  sessionSweepInterval: 600,
  loginUrl: "/login",
  rememberCookie: "remember_token",
  rememberMaxAge: 30 * DAY,
  loginLimitAccount: 5,
  loginLimitAddress: 20,
  loginLimitWindow: 15 * 60,
  loginLimitUrl: undefined,
  passwordAlgorithm: "bcrypt" as PasswordAlgorithm,
  bcryptCost: 12,
  argon2MemoryCost: 19456,
  argon2TimeCost: 2,
  argon2Parallelism: 1,
  jwtAlgorithm: "HS256" as JwtAlgorithm,
  jwtSecret: undefined,
  jwtPrivateKey: undefined,
  jwtPublicKey: undefined,
  jwtIssuer: undefined,
  jwtAudience: undefined,
  jwtExpiresIn: "1h",
  cors: false as const,
  csrfExemptPaths: [] as readonly string[],
  securityHeaders: {},
});

/** The keys of CORS settings (the `cors` config block and `@cors(options)`); `origin` is one origin, the form the docs show. */
export const CORS_KEYS: readonly string[] = Object.freeze([
  "origins",
  "origin",
  "credentials",
  "allowMethods",
  "allowHeaders",
  "exposeHeaders",
  "maxAge",
]);

/** The config keys the security battery reads, for the host's start-up check of unknown keys. */
export const SECURITY_CONFIG_KEYS = Object.freeze({
  env: true,
  secretKey: true,
  cookieSecure: true,
  ...(Object.fromEntries(Object.keys(SECURITY_DEFAULTS).map((key) => [key, true as const])) as {
    readonly [Key in keyof typeof SECURITY_DEFAULTS]: true;
  }),
  cors: Object.freeze(
    Object.fromEntries(CORS_KEYS.map((key) => [key, true as const])) as {
      readonly [Key in keyof CorsSettings]-?: true;
    },
  ),
  // koa-helmet's own options: checked by koa-helmet, not here.
  securityHeaders: true,
  // Named rate limits retuned or switched off: checked by the plugin at start-up (rate-limit.ts).
  rateLimits: true,
  // Idempotency keys: checked by the plugin at start-up (idempotency/config.ts).
  idempotency: IDEMPOTENCY_KEYS,
} as const satisfies Readonly<Record<string, true | Readonly<Record<string, true>>>>);

/** Loose input: app config values (possibly strings from the environment) and plugin options. */
export type SecurityConfigInput = Readonly<Record<string, unknown>>;

/**
 * Resolves the security config from the app config overlaid by plugin options. In production a
 * missing secret key is an error; elsewhere a random one is made (sessions end at restart).
 */
export function resolveSecurityConfig(
  // The app's AppConfig (an interface: no index signature) or any record; every value is checked.
  appConfig: SecurityConfigInput | object,
  options: SecurityConfigInput = {},
  warn: (message: string) => void = () => {},
): SecurityConfig {
  const raw: Record<string, unknown> = { ...appConfig };
  for (const [key, value] of Object.entries(options)) if (value !== undefined) raw[key] = value;
  const env = typeof raw["env"] === "string" && raw["env"] ? raw["env"] : "development";
  let secretKey = typeof raw["secretKey"] === "string" ? raw["secretKey"] : "";
  if (!secretKey) {
    if (env === "production") throw new E_SECURITY_SECRET_KEY_MISSING();
    warn("No secretKey is set: a random one is used, so sessions and tokens end when the process restarts.");
    secretKey = randomBytes(32).toString("base64url");
  }
  const d = SECURITY_DEFAULTS;
  const config: SecurityConfig = {
    env,
    secretKey,
    secretKeyFallbacks: stringList(raw, "secretKeyFallbacks", d.secretKeyFallbacks),
    sessionUrl: str(raw, "sessionUrl", d.sessionUrl),
    sessionCookie: cookieName(raw, "sessionCookie", d.sessionCookie),
    sessionMaxAge: int(raw, "sessionMaxAge", d.sessionMaxAge, 1),
    sessionAnonymousMaxAge: int(raw, "sessionAnonymousMaxAge", d.sessionAnonymousMaxAge, 1),
    csrfCookie: cookieName(raw, "csrfCookie", d.csrfCookie),
    sessionSweepInterval: int(raw, "sessionSweepInterval", d.sessionSweepInterval, 0),
    cookieSecure: bool(raw, "cookieSecure", env === "production"),
    loginUrl: str(raw, "loginUrl", d.loginUrl),
    rememberCookie: cookieName(raw, "rememberCookie", d.rememberCookie),
    rememberMaxAge: int(raw, "rememberMaxAge", d.rememberMaxAge, 1),
    loginLimitAccount: int(raw, "loginLimitAccount", d.loginLimitAccount, 1),
    loginLimitAddress: int(raw, "loginLimitAddress", d.loginLimitAddress, 1),
    loginLimitWindow: int(raw, "loginLimitWindow", d.loginLimitWindow, 1),
    loginLimitUrl: optionalStr(raw, "loginLimitUrl"),
    passwordAlgorithm: oneOf(raw, "passwordAlgorithm", ["bcrypt", "argon2id"] as const, d.passwordAlgorithm),
    bcryptCost: int(raw, "bcryptCost", d.bcryptCost, 4, 31),
    argon2MemoryCost: int(raw, "argon2MemoryCost", d.argon2MemoryCost, 8),
    argon2TimeCost: int(raw, "argon2TimeCost", d.argon2TimeCost, 1),
    argon2Parallelism: int(raw, "argon2Parallelism", d.argon2Parallelism, 1, 255),
    jwtAlgorithm: oneOf(raw, "jwtAlgorithm", ["HS256", "RS256", "EdDSA"] as const, d.jwtAlgorithm),
    jwtSecret: optionalStr(raw, "jwtSecret"),
    jwtPrivateKey: optionalStr(raw, "jwtPrivateKey"),
    jwtPublicKey: optionalStr(raw, "jwtPublicKey"),
    jwtIssuer: optionalStr(raw, "jwtIssuer"),
    jwtAudience: optionalStr(raw, "jwtAudience"),
    jwtExpiresIn: expiresIn(raw, "jwtExpiresIn", d.jwtExpiresIn),
    cors: corsSettings(raw["cors"]),
    csrfExemptPaths: exemptPaths(raw, "csrfExemptPaths", d.csrfExemptPaths),
    securityHeaders: helmetOptions(raw["securityHeaders"]),
  };
  // Production: every secret that signs or verifies passes the host's rule (length, no placeholder).
  if (env === "production") {
    assertStrongSecret("SECRET_KEY (secretKey)", config.secretKey);
    config.secretKeyFallbacks.forEach((key, index) => {
      assertStrongSecret(`secretKeyFallbacks[${index}]`, key);
    });
    if (config.jwtSecret !== undefined) assertStrongSecret("jwtSecret", config.jwtSecret);
  }
  if (config.jwtAlgorithm !== "HS256" && !config.jwtPublicKey && !config.jwtPrivateKey) {
    throw new E_SECURITY_CONFIG_INVALID(
      "jwtAlgorithm",
      `${config.jwtAlgorithm} needs jwtPublicKey (to verify) and jwtPrivateKey (to sign)`,
    );
  }
  return Object.freeze(config);
}

function str(raw: Record<string, unknown>, key: string, fallback: string): string {
  const value = raw[key];
  if (value === undefined || value === null || value === "") return fallback;
  if (typeof value !== "string") throw new E_SECURITY_CONFIG_INVALID(key, "expected a string");
  return value;
}

function optionalStr(raw: Record<string, unknown>, key: string): string | undefined {
  const value = raw[key];
  return value === undefined || value === null || value === "" ? undefined : str(raw, key, "");
}

function cookieName(raw: Record<string, unknown>, key: string, fallback: string): string {
  const value = str(raw, key, fallback);
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(value))
    throw new E_SECURITY_CONFIG_INVALID(key, "not a valid cookie name");
  return value;
}

function int(
  raw: Record<string, unknown>,
  key: string,
  fallback: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const value = raw[key];
  if (value === undefined || value === null || value === "") return fallback;
  const number = typeof value === "string" ? Number(value) : value;
  if (typeof number !== "number" || !Number.isInteger(number) || number < min || number > max) {
    throw new E_SECURITY_CONFIG_INVALID(key, `expected an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return number;
}

function bool(raw: Record<string, unknown>, key: string, fallback: boolean): boolean {
  const value = raw[key];
  if (value === undefined || value === null || value === "") return fallback;
  if (typeof value === "boolean") return value;
  if (value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  throw new E_SECURITY_CONFIG_INVALID(key, "expected true or false");
}

function oneOf<T extends string>(raw: Record<string, unknown>, key: string, allowed: readonly T[], fallback: T): T {
  const value = str(raw, key, fallback);
  if (!(allowed as readonly string[]).includes(value)) {
    throw new E_SECURITY_CONFIG_INVALID(key, `expected one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`);
  }
  return value as T;
}

function stringList(raw: Record<string, unknown>, key: string, fallback: readonly string[]): readonly string[] {
  const value = raw[key];
  if (value === undefined || value === null || value === "") return fallback;
  if (typeof value === "string")
    return value
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  if (Array.isArray(value) && value.every((v) => typeof v === "string" && v)) return Object.freeze([...value]);
  throw new E_SECURITY_CONFIG_INVALID(key, "expected a list of non-empty strings");
}

function exemptPaths(raw: Record<string, unknown>, key: string, fallback: readonly string[]): readonly string[] {
  const paths = stringList(raw, key, fallback);
  for (const path of paths) {
    if (!/^\/[^*?#\s]*(\/\*)?$/.test(path)) {
      throw new E_SECURITY_CONFIG_INVALID(
        key,
        `${JSON.stringify(path)} is not a path such as "/hooks/stripe" or "/hooks/*" (a * only as the last segment)`,
      );
    }
  }
  return paths;
}

function expiresIn(raw: Record<string, unknown>, key: string, fallback: string): number | string {
  const value = raw[key];
  if (value === undefined || value === null || value === "") return fallback;
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  if (typeof value === "string" && /^\d+$/.test(value)) return Number(value);
  if (
    typeof value === "string" &&
    /^\d+\s*(s|sec|secs|second|seconds|m|min|mins|minute|minutes|h|hr|hrs|hour|hours|d|day|days|w|week|weeks)$/i.test(
      value,
    )
  )
    return value;
  throw new E_SECURITY_CONFIG_INVALID(key, 'expected seconds or a span such as "15m", "1h", "7d"');
}

function corsSettings(value: unknown): CorsSettings | false {
  if (value === undefined || value === null || value === false) return false;
  if (typeof value !== "object") throw new E_SECURITY_CONFIG_INVALID("cors", "expected an object or false");
  return validateCors(value as CorsSettings, "cors");
}

/**
 * Checks CORS settings (shared by the app-wide key and the per-view decorator): only known keys,
 * each of the right type; `origin` becomes `origins: [origin]`. The result has no `origin`.
 */
export function validateCors(settings: CorsSettings, where: string): CorsSettings {
  checkOptionKeys(where, settings, CORS_KEYS);
  const { origin, ...rest } = settings;
  if (origin !== undefined && settings.origins !== undefined) {
    throw new E_SECURITY_CONFIG_INVALID(where, "give origin (one origin) or origins (a list), not both");
  }
  if (origin !== undefined && typeof origin !== "string") {
    throw new E_SECURITY_CONFIG_INVALID(
      where,
      'origin must be one origin such as "https://app.example.com" (use origins for a list)',
    );
  }
  const origins = origin === undefined ? (settings.origins ?? "*") : origin === "*" ? "*" : [origin];
  if (rest.credentials !== undefined && typeof rest.credentials !== "boolean")
    throw new E_SECURITY_CONFIG_INVALID(where, "credentials must be true or false");
  for (const key of ["allowMethods", "allowHeaders", "exposeHeaders"] as const) {
    const list = rest[key];
    if (list !== undefined && (!Array.isArray(list) || !list.every((item) => typeof item === "string" && item))) {
      throw new E_SECURITY_CONFIG_INVALID(where, `${key} must be a list of names`);
    }
  }
  if (
    rest.maxAge !== undefined &&
    (typeof rest.maxAge !== "number" || !Number.isInteger(rest.maxAge) || rest.maxAge < 0)
  ) {
    throw new E_SECURITY_CONFIG_INVALID(where, "maxAge must be a whole number of seconds, 0 or more");
  }
  if (
    origins !== "*" &&
    (!Array.isArray(origins) || !origins.every((o) => typeof o === "string" && /^https?:\/\/[^/]+$/.test(o)))
  ) {
    throw new E_SECURITY_CONFIG_INVALID(
      where,
      'origins must be "*" or a list of origins such as "https://app.example.com" (no path)',
    );
  }
  if (origins === "*" && settings.credentials) {
    throw new E_SECURITY_CONFIG_INVALID(
      where,
      'credentials cannot be combined with origins "*"; list the allowed origins',
    );
  }
  return Object.freeze({ ...rest, origins });
}

function helmetOptions(value: unknown): Record<string, unknown> | false {
  if (value === undefined || value === null) return {};
  if (value === false) return false;
  if (typeof value !== "object")
    throw new E_SECURITY_CONFIG_INVALID("securityHeaders", "expected koa-helmet options or false");
  return value as Record<string, unknown>;
}

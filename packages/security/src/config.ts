/**
 * The security package's configuration, resolved once at start-up from the keys declared in
 * config-schema.ts, plus the rules that join keys: the secret key (random outside production),
 * strong secrets in production, CORS settings checked in full, and keys RS256/EdDSA need.
 */
import { randomBytes } from "node:crypto";
import { assertStrongSecret } from "@fwkit/koa-host/plugin";
import type { ResolvedOf } from "@fwkit/koa-host/config-schema";
import { securityConfigSchema } from "./config-schema.js";
import { type CorsSettings, validateCors } from "./cors-settings.js";
import { E_SECURITY_CONFIG_INVALID, E_SECURITY_SECRET_KEY_MISSING } from "./errors.js";

export { CORS_KEYS, type CorsSettings, validateCors } from "./cors-settings.js";

type Resolved = ResolvedOf<typeof securityConfigSchema>;

/** Password hashing algorithms `hashPassword` can produce. */
export type PasswordAlgorithm = Resolved["passwordAlgorithm"];

/** JWT signature algorithms `signJwt` can use. */
export type JwtAlgorithm = Resolved["jwtAlgorithm"];

/** The security config as the battery reads it (docs/configuration.md lists each key). */
export interface SecurityConfig extends Omit<Resolved, "rateLimits" | "cors"> {
  /** `production` turns on Secure cookies and HSTS. */
  readonly env: string;
  /** Signs session cookies, CSRF tokens, remember-me cookies and HS256 JWTs. */
  readonly secretKey: string;
  /** App-wide CORS, checked; `false` sends no CORS headers. */
  readonly cors: CorsSettings | false;
}

/** Keys read elsewhere (rate-limit.ts), not part of {@link SecurityConfig}. */
const READ_ELSEWHERE = ["rateLimits"] as const;

function withoutReadElsewhere<T extends object>(config: T): Omit<T, (typeof READ_ELSEWHERE)[number]> {
  const copy = { ...config } as Record<string, unknown>;
  for (const name of READ_ELSEWHERE) delete copy[name];
  return copy as Omit<T, (typeof READ_ELSEWHERE)[number]>;
}

/** The defaults of every key except `env`, `secretKey` and `cookieSecure` (which follows `env`). */
export const SECURITY_DEFAULTS = Object.freeze(
  (({ cookieSecure, ...defaults }) => {
    void cookieSecure;
    return withoutReadElsewhere(defaults);
  })(securityConfigSchema.resolve({}, { env: {} })),
);

/** The config keys the security battery reads, for the host's start-up check of unknown keys. */
export const SECURITY_CONFIG_KEYS = securityConfigSchema.configKeys;

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
  for (const [name, value] of Object.entries(options)) if (value !== undefined) raw[name] = value;
  const env = typeof raw["env"] === "string" && raw["env"] ? raw["env"] : "development";
  let secretKey = typeof raw["secretKey"] === "string" ? raw["secretKey"] : "";
  if (!secretKey) {
    if (env === "production") throw new E_SECURITY_SECRET_KEY_MISSING();
    warn("No secretKey is set: a random one is used, so sessions and tokens end when the process restarts.");
    secretKey = randomBytes(32).toString("base64url");
  }
  const read = securityConfigSchema.resolve({ ...raw, env }, { env: {} });
  const config: SecurityConfig = {
    ...withoutReadElsewhere(read),
    env,
    secretKey,
    cors: read.cors === false ? false : validateCors(read.cors, "cors"),
  };
  // Production: every secret that signs or verifies passes the host's rule (length, no placeholder).
  if (env === "production") {
    assertStrongSecret("SECRET_KEY (secretKey)", config.secretKey);
    config.secretKeyFallbacks.forEach((fallback, index) => {
      assertStrongSecret(`secretKeyFallbacks[${index}]`, fallback);
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

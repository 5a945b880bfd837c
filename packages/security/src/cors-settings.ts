/**
 * CORS settings, shared by the app-wide `cors` config key and the per-view `@cors(options)`: their
 * shape, their keys and their check.
 */
import { checkOptionKeys } from "routing-kernel";
import { E_SECURITY_CONFIG_INVALID } from "./errors.js";

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

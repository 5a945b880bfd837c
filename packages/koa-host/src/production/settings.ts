import type { AppConfig } from "../config.js";
import { E_PRODUCTION_CONFIG } from "../errors.js";
import { trustProxyOf, type TrustProxySetting } from "./trust-proxy.js";

/** The host's production keys, checked once at start-up. */
export interface ProductionSettings {
  /**
   * Trust X-Forwarded-For/Proto/Host (and the request id) from the balancer: `false` (default),
   * the number of proxies in front (only that many X-Forwarded-For entries, from the right, are
   * believed), or the proxies' addresses and CIDR ranges (see {@link TrustProxySetting}).
   */
  readonly trustProxy: TrustProxySetting;
  /** Liveness path (`/healthz`), or false to switch it off. */
  readonly healthPath: string | false;
  /** Readiness path (`/readyz`), or false to switch it off. */
  readonly readyPath: string | false;
  /** Milliseconds each plugin's `ready()` may take before readiness fails (default 2000). */
  readonly readyTimeoutMs: number;
  /** Milliseconds a readiness check's answer is kept before the part is asked again (`readyCache`, default 1000; 0: every probe asks). */
  readonly readyCacheMs: number;
  /** Milliseconds in-flight requests get to finish at shutdown (`shutdownGrace` seconds, default 10). */
  readonly shutdownGraceMs: number;
  /** The request id header read from the client and echoed (lower case; default `x-request-id`). */
  readonly requestIdHeader: string;
}

/** The config keys this file reads, with their defaults (documented in docs/deployment.md). */
export const PRODUCTION_DEFAULTS = Object.freeze({
  trustProxy: false,
  healthPath: "/healthz",
  readyPath: "/readyz",
  readyTimeout: 2000,
  readyCache: 1000,
  shutdownGrace: 10,
  requestIdHeader: "X-Request-Id",
});

function pathOf(key: string, value: unknown): string | false {
  if (value === false) return false;
  if (typeof value === "string" && /^\/[A-Za-z0-9._~/-]*$/.test(value) && !value.includes("//")) return value;
  throw new E_PRODUCTION_CONFIG(key, 'an absolute URL path such as "/healthz", or false to switch it off', value);
}

function positive(key: string, value: unknown, what: string): number {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof number === "number" && Number.isFinite(number) && number > 0) return number;
  throw new E_PRODUCTION_CONFIG(key, what, value);
}

function notNegative(key: string, value: unknown, what: string): number {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof number === "number" && Number.isFinite(number) && number >= 0) return number;
  throw new E_PRODUCTION_CONFIG(key, what, value);
}

/** Reads and checks the production keys of an app's config; a wrong value is a start-up error. */
export function productionSettings(config: AppConfig): ProductionSettings {
  const value = (key: keyof typeof PRODUCTION_DEFAULTS): unknown => config[key] ?? PRODUCTION_DEFAULTS[key];
  const header = value("requestIdHeader");
  if (typeof header !== "string" || !/^[A-Za-z0-9-]+$/.test(header)) {
    throw new E_PRODUCTION_CONFIG("requestIdHeader", 'a header name such as "X-Request-Id"', header);
  }
  const healthPath = pathOf("healthPath", value("healthPath"));
  const readyPath = pathOf("readyPath", value("readyPath"));
  if (healthPath && healthPath === readyPath)
    throw new E_PRODUCTION_CONFIG("readyPath", "a path other than healthPath", readyPath);
  return Object.freeze({
    trustProxy: trustProxyOf(value("trustProxy")),
    healthPath,
    readyPath,
    readyTimeoutMs: positive("readyTimeout", value("readyTimeout"), "milliseconds, a number above 0"),
    readyCacheMs: notNegative(
      "readyCache",
      value("readyCache"),
      "milliseconds, a number from 0 (0: every probe asks the stores)",
    ),
    shutdownGraceMs: positive("shutdownGrace", value("shutdownGrace"), "seconds, a number above 0") * 1000,
    requestIdHeader: header.toLowerCase(),
  });
}

import type { AppConfig } from "../config.js";
import { E_PRODUCTION_CONFIG } from "../errors.js";
import { productionConfigSchema } from "./config-schema.js";
import type { TrustProxySetting } from "./trust-proxy.js";

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

const defaults = productionConfigSchema.resolve({}, { env: {} });

/** The config keys this file reads, with their defaults (documented in docs/deployment.md); both paths are on by default. */
export const PRODUCTION_DEFAULTS = Object.freeze({
  ...defaults,
  healthPath: String(defaults.healthPath),
  readyPath: String(defaults.readyPath),
});

/** Reads and checks the production keys of an app's config; a wrong value is a start-up error. */
export function productionSettings(config: AppConfig): ProductionSettings {
  const read = productionConfigSchema.resolve(config, { env: {} });
  if (read.healthPath && read.healthPath === read.readyPath)
    throw new E_PRODUCTION_CONFIG("readyPath", "a path other than healthPath", read.readyPath);
  return Object.freeze({
    trustProxy: read.trustProxy,
    healthPath: read.healthPath,
    readyPath: read.readyPath,
    readyTimeoutMs: read.readyTimeout,
    readyCacheMs: read.readyCache,
    shutdownGraceMs: read.shutdownGrace * 1000,
    requestIdHeader: read.requestIdHeader.toLowerCase(),
  });
}

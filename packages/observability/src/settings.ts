/**
 * Reads and checks the `metrics`, `tracing` and `logContext` keys (config-schema.ts) once at
 * start-up: a wrong value stops the start with a coded error naming the key and what it takes.
 */
import type { AppConfig } from "@fwkit/koa-host";
import type { ResolvedOf } from "@fwkit/koa-host/config-schema";
import { observabilityConfigSchema } from "./config-schema.js";
import { E_METRICS_TOKEN_REQUIRED } from "./errors.js";

export { DEFAULT_BUCKETS, DEFAULT_METRICS_PORT, DEFAULT_WORKER_METRICS_PORT } from "./config-schema.js";

type Resolved = ResolvedOf<typeof observabilityConfigSchema>;
type ResolvedMetrics = Resolved["metrics"];
type ResolvedTracing = Resolved["tracing"];

/** The metrics settings, checked. */
export interface MetricsSettings extends ResolvedMetrics {}

/** The tracing settings, checked. */
export interface TracingSettings extends ResolvedTracing {}

/** Everything the battery reads. */
export interface ObservabilitySettings {
  readonly metrics: MetricsSettings;
  readonly tracing: TracingSettings;
  readonly logContext: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

/** Reads `metrics` (`METRICS_ENABLED`, `METRICS_PORT`, `METRICS_WORKER_PORT`, `METRICS_HOST` and `METRICS_TOKEN` where the config is silent). */
export function metricsSettings(config: AppConfig, env: Env = process.env): MetricsSettings {
  const settings = observabilityConfigSchema.resolveKey("metrics", config, { env });
  if (settings.enabled && settings.port === false && settings.token === undefined) throw new E_METRICS_TOKEN_REQUIRED();
  return settings;
}

/** Reads `tracing` (and `OTEL_SDK_DISABLED`, `OTEL_TRACES_EXPORTER`, `OTEL_EXPORTER_OTLP_*`, `OTEL_SERVICE_NAME`). */
export function tracingSettings(config: AppConfig, env: Env = process.env): TracingSettings {
  const settings = observabilityConfigSchema.resolveKey("tracing", config, { env });
  return env["OTEL_SDK_DISABLED"] === "true" ? Object.freeze({ ...settings, enabled: false }) : settings;
}

/** Reads every key of the battery. */
export function observabilitySettings(config: AppConfig, env: Env = process.env): ObservabilitySettings {
  return Object.freeze({
    metrics: metricsSettings(config, env),
    tracing: tracingSettings(config, env),
    logContext: observabilityConfigSchema.resolveKey("logContext", config, { env }),
  });
}

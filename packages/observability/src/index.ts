/**
 * @module @fwkit/observability
 * Prometheus metrics summed across cluster workers, OpenTelemetry traces per request and route,
 * and log lines that carry the request's trace: the observability battery of both frameworks.
 */
export { OBSERVABILITY_CONFIG_KEYS } from "./config.js";
export { observabilityConfigSchema } from "./config-schema.js";
export type { MetricsConfig, ObservabilityAppConfig, SpanExporterLike, TracingConfig } from "./config-schema.js";
export {
  E_METRIC_NAME,
  E_METRICS_PORT_IN_USE,
  E_METRICS_TOKEN_REQUIRED,
  E_METRICS_UNAVAILABLE,
  E_OBSERVABILITY_CONFIG,
  E_OBSERVABILITY_DRIVER_MISSING,
  E_TRACING_EXPORTER,
} from "./errors.js";
export { defineCounter, defineGauge, defineHistogram } from "./metrics/app-metrics.js";
export { observabilityPlugin, type ObservabilityOptions, type ObservabilityPlugin } from "./plugin.js";

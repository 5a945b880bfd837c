/**
 * The observability battery's errors: each a stable code, an HTTP status and a message that says
 * what to do. Every code is documented in docs/errors.md.
 */
import { createError } from "routing-kernel";

const shown = (value: unknown) =>
  typeof value === "function" ? "a function" : (JSON.stringify(value) ?? String(value));

/** A `metrics`, `tracing` or `logContext` config value that is not what the key takes. */
export const E_OBSERVABILITY_CONFIG = createError(
  "E_OBSERVABILITY_CONFIG",
  500,
  (key: string, expected: string, value: unknown) => `The config key ${key} must be ${expected}, not ${shown(value)}.`,
);

/** A metric or label name Prometheus would refuse (the app's own metrics, `metrics.prefix`, `metrics.labels`). */
export const E_METRIC_NAME = createError(
  "E_METRIC_NAME",
  500,
  (what: string, name: string) =>
    `The ${what} ${shown(name)} is not a valid Prometheus name. Use letters, digits and underscores, not starting with a digit (a metric name may also hold ":"; a label name may not start with "__").`,
);

/** The port metrics were to be served on is taken. */
export const E_METRICS_PORT_IN_USE = createError(
  "E_METRICS_PORT_IN_USE",
  500,
  (address: string) =>
    `The metrics port ${address} is already in use (another app, a second node or a second job worker on this machine). Set metrics.port (METRICS_PORT; a job worker's: metrics.workerPort, METRICS_WORKER_PORT) to a free port, or metrics.port: false with metrics.token to serve metrics on the app's own port.`,
);

/** Metrics on the app's own port with no token: the balancer would publish them. */
export const E_METRICS_TOKEN_REQUIRED = createError(
  "E_METRICS_TOKEN_REQUIRED",
  500,
  () =>
    "metrics.port: false serves metrics on the app's own port, which the balancer exposes to everyone. Set metrics.token (METRICS_TOKEN, 16 characters or more; Prometheus sends it as a bearer token), or give metrics a port of their own.",
);

/** A scrape the cluster primary could not answer (a worker that did not answer in time). */
export const E_METRICS_UNAVAILABLE = createError(
  "E_METRICS_UNAVAILABLE",
  503,
  (reason: string) =>
    `The metrics of this node could not be collected (${reason}). Prometheus retries at the next scrape; if it lasts, read the node's log.`,
);

/** `tracing.exporter` (or `OTEL_TRACES_EXPORTER`) names no exporter this battery knows. */
export const E_TRACING_EXPORTER = createError(
  "E_TRACING_EXPORTER",
  500,
  (value: unknown) =>
    `The trace exporter ${shown(value)} is unknown. Use "otlp" (OTLP over HTTP to OTEL_EXPORTER_OTLP_ENDPOINT, the default), "console", "none", or a SpanExporter object (tests).`,
);

/** An OpenTelemetry SDK package tracing needs is not installed. */
export const E_OBSERVABILITY_DRIVER_MISSING = createError(
  "E_OBSERVABILITY_DRIVER_MISSING",
  500,
  (user: string, name: string, reason: string) =>
    `${user} needs the package "${name}", which could not be loaded (${reason}). Install it (npm install ${name}) in the app, or switch tracing off.`,
);

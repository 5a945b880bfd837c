/**
 * Reads and checks the `metrics`, `tracing` and `logContext` keys once at start-up: a wrong value
 * stops the start with a coded error naming the key and what it takes.
 */
import type { AppConfig } from "@fwkit/koa-host";
import type { SpanExporterLike } from "./config-types.js";
import { E_METRICS_TOKEN_REQUIRED, E_OBSERVABILITY_CONFIG, E_TRACING_EXPORTER } from "./errors.js";
import { checkLabelName, checkMetricName } from "./metrics/names.js";

/** The metrics settings, checked. */
export interface MetricsSettings {
  readonly enabled: boolean;
  readonly path: string;
  /** A port of their own, or `false` for the app's port. */
  readonly port: number | false;
  /** A job worker's own port, or `false`: a worker serves no metrics. */
  readonly workerPort: number | false;
  readonly host: string;
  readonly token: string | undefined;
  readonly prefix: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly buckets: readonly number[];
  readonly processMetrics: boolean;
}

/** The tracing settings, checked. */
export interface TracingSettings {
  readonly enabled: boolean;
  readonly exporter: "otlp" | "console" | "none" | SpanExporterLike;
  readonly serviceName: string;
}

/** Everything the battery reads. */
export interface ObservabilitySettings {
  readonly metrics: MetricsSettings;
  readonly tracing: TracingSettings;
  readonly logContext: boolean;
}

/** Latency buckets in seconds: 5 ms to 10 s, the shape of prom-client's and Rails' defaults. */
export const DEFAULT_BUCKETS: readonly number[] = Object.freeze([
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
]);

/** The metrics port by default: the one the OpenTelemetry Prometheus exporter uses. */
export const DEFAULT_METRICS_PORT = 9464;

/** A job worker's metrics port by default: the next one, so a worker and `start` share a machine. */
export const DEFAULT_WORKER_METRICS_PORT = 9465;

const EXPORTERS = ["otlp", "console", "none"] as const;

type Env = Readonly<Record<string, string | undefined>>;

function block(key: string, value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new E_OBSERVABILITY_CONFIG(key, "an object of options", value);
}

function bool(key: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (value === true || value === "true" || value === "1") return true;
  if (value === false || value === "false" || value === "0") return false;
  throw new E_OBSERVABILITY_CONFIG(key, "true or false", value);
}

function text(key: string, value: unknown, fallback: string, rule: RegExp, what: string): string {
  if (value === undefined) return fallback;
  if (typeof value === "string" && rule.test(value)) return value;
  throw new E_OBSERVABILITY_CONFIG(key, what, value);
}

function port(value: unknown, key = "metrics.port", fallback = DEFAULT_METRICS_PORT): number | false {
  if (value === undefined) return fallback;
  if (value === false || value === "false") return false;
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof number === "number" && Number.isInteger(number) && number >= 0 && number <= 65535) return number;
  throw new E_OBSERVABILITY_CONFIG(
    key,
    key === "metrics.port"
      ? "a port from 0 to 65535 (0: any free one), or false for the app's own port"
      : "a port from 0 to 65535 (0: any free one), or false for none",
    value,
  );
}

function buckets(value: unknown): readonly number[] {
  if (value === undefined) return DEFAULT_BUCKETS;
  const ok =
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (n, i) => typeof n === "number" && Number.isFinite(n) && n > 0 && (i === 0 || n > (value[i - 1] as number)),
    );
  if (ok) return Object.freeze([...(value as number[])]);
  throw new E_OBSERVABILITY_CONFIG(
    "metrics.buckets",
    "a list of seconds above 0 in increasing order, such as [0.01, 0.1, 1]",
    value,
  );
}

function labels(value: unknown): Readonly<Record<string, string>> {
  const given = block("metrics.labels", value);
  for (const [name, label] of Object.entries(given)) {
    checkLabelName(name, "label name in metrics.labels");
    if (typeof label !== "string") throw new E_OBSERVABILITY_CONFIG(`metrics.labels.${name}`, "a string", label);
  }
  return Object.freeze({ ...(given as Record<string, string>) });
}

/** Reads `metrics` (`METRICS_ENABLED`, `METRICS_PORT`, `METRICS_WORKER_PORT` and `METRICS_TOKEN` where the config is silent). */
export function metricsSettings(config: AppConfig, env: Env = process.env): MetricsSettings {
  const given = block("metrics", config.metrics);
  const enabled = bool("metrics.enabled", given["enabled"] ?? (env["METRICS_ENABLED"] || undefined), false);
  const path = text(
    "metrics.path",
    given["path"],
    "/metrics",
    /^\/[A-Za-z0-9._~/-]*$/,
    'an absolute URL path such as "/metrics"',
  );
  const token = given["token"] ?? (env["METRICS_TOKEN"] || undefined);
  if (token !== undefined && (typeof token !== "string" || token.length < 16 || /\s/.test(token))) {
    throw new E_OBSERVABILITY_CONFIG(
      "metrics.token",
      "a secret of 16 characters or more without spaces (METRICS_TOKEN)",
      token === undefined ? token : "(hidden)",
    );
  }
  const settings: MetricsSettings = Object.freeze({
    enabled,
    path,
    port: port(given["port"] ?? (env["METRICS_PORT"] || undefined)),
    workerPort: port(
      given["workerPort"] ?? (env["METRICS_WORKER_PORT"] || undefined),
      "metrics.workerPort",
      DEFAULT_WORKER_METRICS_PORT,
    ),
    // Where the app listens (`start` sets METRICS_HOST to its --host), else loopback: metrics
    // without a token are never offered to every network by default.
    host: text(
      "metrics.host",
      given["host"] ?? (env["METRICS_HOST"] || undefined),
      "127.0.0.1",
      /^[A-Za-z0-9.:[\]-]+$/,
      'an address to listen on, such as "0.0.0.0" or "127.0.0.1"',
    ),
    token,
    prefix:
      given["prefix"] === undefined || given["prefix"] === ""
        ? ""
        : checkMetricName(String(given["prefix"]), "metrics.prefix", given["prefix"]),
    labels: labels(given["labels"]),
    buckets: buckets(given["buckets"]),
    processMetrics: bool("metrics.processMetrics", given["processMetrics"], true),
  });
  if (enabled && settings.port === false && settings.token === undefined) throw new E_METRICS_TOKEN_REQUIRED();
  return settings;
}

/** Whether the standard OpenTelemetry variables ask for traces (an exporter or an OTLP endpoint). */
function otelAsks(env: Env): boolean {
  if (env["OTEL_SDK_DISABLED"] === "true") return false;
  const exporter = env["OTEL_TRACES_EXPORTER"];
  if (exporter !== undefined && exporter !== "" && exporter !== "none") return true;
  return Boolean(env["OTEL_EXPORTER_OTLP_ENDPOINT"] || env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]);
}

/** Reads `tracing` (and `OTEL_SDK_DISABLED`, `OTEL_TRACES_EXPORTER`, `OTEL_EXPORTER_OTLP_*`, `OTEL_SERVICE_NAME`). */
export function tracingSettings(config: AppConfig, env: Env = process.env): TracingSettings {
  const given = block("tracing", config.tracing);
  const enabled =
    env["OTEL_SDK_DISABLED"] === "true" ? false : bool("tracing.enabled", given["enabled"], otelAsks(env));
  const exporter = given["exporter"] ?? (env["OTEL_TRACES_EXPORTER"] || "otlp");
  const isExporter =
    typeof exporter === "object" && exporter !== null && typeof (exporter as SpanExporterLike).export === "function";
  if (!isExporter && !(EXPORTERS as readonly unknown[]).includes(exporter)) throw new E_TRACING_EXPORTER(exporter);
  const serviceName = given["serviceName"] ?? (env["OTEL_SERVICE_NAME"] || config.appName || "app");
  if (typeof serviceName !== "string" || serviceName.trim() === "")
    throw new E_OBSERVABILITY_CONFIG("tracing.serviceName", 'a name such as "shop"', serviceName);
  return Object.freeze({ enabled, exporter: exporter as TracingSettings["exporter"], serviceName });
}

/** Reads every key of the battery. */
export function observabilitySettings(config: AppConfig, env: Env = process.env): ObservabilitySettings {
  return Object.freeze({
    metrics: metricsSettings(config, env),
    tracing: tracingSettings(config, env),
    logContext: bool("logContext", config.logContext, false),
  });
}

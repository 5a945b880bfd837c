/**
 * The observability battery's config keys (`metrics`, `tracing`, `logContext`), declared once: the
 * app-facing types (`ObservabilityAppConfig`, `MetricsConfig`, `TracingConfig`, added to `AppConfig`
 * of `@fwkit/koa-host` by module augmentation), the start-up check of unknown keys, the defaults,
 * the environment variables each key falls back to, and the rows of docs/configuration.md.
 */
// The module augmented below must be part of the program.
import type {} from "@fwkit/koa-host";
import { isPlainObject } from "@fwkit/koa-host/plugin";
import {
  coerceNumber,
  defineConfigSchema,
  type InputOf,
  type InputOfShape,
  key,
  NOT_READ,
  type ReadContext,
} from "@fwkit/koa-host/config-schema";
import { E_OBSERVABILITY_CONFIG, E_TRACING_EXPORTER } from "./errors.js";
import { checkLabelName, checkMetricName } from "./metrics/names.js";

/** The trace exporter an OpenTelemetry span processor sends to (an SDK `SpanExporter`, for tests). */
export interface SpanExporterLike {
  export(spans: unknown[], done: (result: { code: number; error?: Error }) => void): void;
  shutdown(): Promise<void>;
}

/** Latency buckets in seconds: 5 ms to 10 s, the shape of prom-client's and Rails' defaults. */
export const DEFAULT_BUCKETS: readonly number[] = Object.freeze([
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
]);

/** The metrics port by default: the one the OpenTelemetry Prometheus exporter uses. */
export const DEFAULT_METRICS_PORT = 9464;

/** A job worker's metrics port by default: the next one, so a worker and `start` share a machine. */
export const DEFAULT_WORKER_METRICS_PORT = 9465;

const EXPORTERS: readonly unknown[] = ["otlp", "console", "none"];

function port(doc: string, env: string, fallback: number, expected: string) {
  return key.custom<number | false>({
    doc,
    kind: "port or false",
    env,
    default: fallback,
    read: (value, context) => {
      if (value === false || value === "false") return false;
      const number = coerceNumber(value);
      if (number !== NOT_READ && Number.isInteger(number) && number >= 0 && number <= 65535) return number;
      return context.invalid(context.path, expected, value);
    },
  });
}

function buckets(value: unknown, context: ReadContext): readonly number[] {
  const ok =
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (n, i) => typeof n === "number" && Number.isFinite(n) && n > 0 && (i === 0 || n > (value[i - 1] as number)),
    );
  if (ok) return Object.freeze([...(value as number[])]);
  return context.invalid(context.path, "a list of seconds above 0 in increasing order, such as [0.01, 0.1, 1]", value);
}

function labels(value: unknown, context: ReadContext): Readonly<Record<string, string>> {
  if (!isPlainObject(value)) return context.invalid(context.path, "an object of options", value);
  for (const [name, label] of Object.entries(value)) {
    checkLabelName(name, "label name in metrics.labels");
    if (typeof label !== "string") context.invalid(`${context.path}.${name}`, "a string", label);
  }
  return Object.freeze({ ...(value as Record<string, string>) });
}

/** Whether the standard OpenTelemetry variables ask for traces (an exporter or an OTLP endpoint). */
export function otelAsks(env: Readonly<Record<string, string | undefined>>): boolean {
  if (env["OTEL_SDK_DISABLED"] === "true") return false;
  const exporter = env["OTEL_TRACES_EXPORTER"];
  if (exporter !== undefined && exporter !== "" && exporter !== "none") return true;
  return Boolean(env["OTEL_EXPORTER_OTLP_ENDPOINT"] || env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]);
}

const metrics = {
  enabled: key.bool({ doc: "Serve Prometheus metrics.", env: "METRICS_ENABLED", default: false }),
  path: key.string({
    doc: "The scrape path.",
    default: "/metrics",
    pattern: /^\/[A-Za-z0-9._~/-]*$/,
    expected: 'an absolute URL path such as "/metrics"',
  }),
  port: port(
    "The port metrics are served on, apart from the app's; `false`: the app's own port, behind `token`.",
    "METRICS_PORT",
    DEFAULT_METRICS_PORT,
    "a port from 0 to 65535 (0: any free one), or false for the app's own port",
  ),
  workerPort: port(
    "The port a job worker serves its own metrics on; `false`: a worker serves none.",
    "METRICS_WORKER_PORT",
    DEFAULT_WORKER_METRICS_PORT,
    "a port from 0 to 65535 (0: any free one), or false for none",
  ),
  // Where the app listens (`start` sets METRICS_HOST to its --host), else loopback: metrics
  // without a token are never offered to every network by default.
  host: key.string({
    doc: "The address the metrics port listens on (under `start`: the app's host).",
    env: "METRICS_HOST",
    default: "127.0.0.1",
    pattern: /^[A-Za-z0-9.:[\]-]+$/,
    expected: 'an address to listen on, such as "0.0.0.0" or "127.0.0.1"',
  }),
  token: key.string({
    doc: "The bearer token a scrape must send; required with `port: false`.",
    env: "METRICS_TOKEN",
    secret: true,
    pattern: /^\S{16,}$/,
    expected: "a secret of 16 characters or more without spaces (METRICS_TOKEN)",
  }),
  prefix: key.custom<string>({
    doc: "A prefix for every metric name (`shop_`).",
    kind: "metric name",
    default: "",
    read: (value, context) => checkMetricName(String(value), context.path, value),
  }),
  labels: key.custom<Readonly<Record<string, string>>>({
    doc: 'Labels added to every series (`{ service: "shop" }`).',
    kind: "object of strings",
    default: {},
    defaultText: "`{}`",
    read: labels,
  }),
  buckets: key.custom<readonly number[]>({
    doc: "The latency histogram's buckets, in seconds.",
    kind: "list of numbers",
    default: DEFAULT_BUCKETS,
    defaultText: "5 ms to 10 s",
    read: buckets,
  }),
  processMetrics: key.bool({ doc: "Node's process metrics and event-loop delay.", default: true }),
} as const;

const tracing = {
  enabled: key.bool({
    doc: "Trace requests (`OTEL_SDK_DISABLED=true` turns it off).",
    default: (_config, env) => otelAsks(env),
    defaultText: "true when `OTEL_TRACES_EXPORTER` or an OTLP endpoint variable is set",
  }),
  exporter: key.custom<"otlp" | "console" | "none" | SpanExporterLike>({
    doc: '`"otlp"` (OTLP over HTTP), `"console"`, `"none"`, or a `SpanExporter` (tests).',
    kind: "exporter",
    env: "OTEL_TRACES_EXPORTER",
    default: "otlp",
    read: (value) => {
      const isExporter =
        typeof value === "object" && value !== null && typeof (value as SpanExporterLike).export === "function";
      if (!isExporter && !EXPORTERS.includes(value)) throw new E_TRACING_EXPORTER(value);
      return value as "otlp" | "console" | "none" | SpanExporterLike;
    },
  }),
  serviceName: key.string({
    doc: "The `service.name` of the spans.",
    env: "OTEL_SERVICE_NAME",
    default: (config) => (typeof config["appName"] === "string" && config["appName"]) || "app",
    defaultText: "`appName`, else `app`",
    pattern: /\S/,
    expected: 'a name such as "shop"',
  }),
  viewSpans: key.bool({
    doc: "A span per view (its hooks, method and answer) under the request's span, which is named after the route either way.",
    default: false,
  }),
} as const;

/** The observability battery's keys. */
export const observabilityConfigSchema = defineConfigSchema(
  {
    metrics: key.block(metrics, { doc: "Prometheus metrics." }),
    tracing: key.block(tracing, { doc: "OpenTelemetry traces." }),
    logContext: key.bool({
      doc: "The request id (and trace) on every line of the app's logger, also without tracing.",
      default: false,
    }),
  },
  { invalid: (path, expected, value) => new E_OBSERVABILITY_CONFIG(path, expected, value) },
);

/** The `metrics` block, as an app writes it (see docs/observability.md). */
export interface MetricsConfig extends InputOfShape<typeof metrics> {}

/** The `tracing` block (or the standard `OTEL_*` environment variables). */
export interface TracingConfig extends InputOfShape<typeof tracing> {}

/** The config keys the observability battery reads, as an app writes them. */
export interface ObservabilityAppConfig extends InputOf<typeof observabilityConfigSchema> {}

declare module "@fwkit/koa-host" {
  // eslint-disable-next-line @typescript-eslint/no-empty-interface -- the merge is the point
  interface AppConfig extends ObservabilityAppConfig {}
}

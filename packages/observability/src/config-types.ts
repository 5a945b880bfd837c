/**
 * The observability battery's keys in an app's config, added to `AppConfig` of `@fwkit/koa-host` by
 * module augmentation, so `defineConfig({...})` knows them and a misspelt key is a compile error.
 */
// The module augmented below must be part of the program.
import type {} from "@fwkit/koa-host";
import type { ConfigKeysAgree } from "@fwkit/koa-host/plugin";
import type { OBSERVABILITY_CONFIG_KEYS } from "./config.js";

/** The trace exporter an OpenTelemetry span processor sends to (an SDK `SpanExporter`, for tests). */
export interface SpanExporterLike {
  export(spans: unknown[], done: (result: { code: number; error?: Error }) => void): void;
  shutdown(): Promise<void>;
}

/** The `metrics` block (see docs/observability.md). */
export interface MetricsConfig {
  /** Serve Prometheus metrics (`METRICS_ENABLED`, default false). */
  readonly enabled?: boolean;
  /** The scrape path (default `/metrics`). */
  readonly path?: string;
  /**
   * The port metrics are served on, apart from the app's so the balancer never exposes them
   * (`METRICS_PORT`, default 9464); `false` serves them on the app's own port behind `token`.
   */
  readonly port?: number | false;
  /**
   * The port a job worker (`jobs:work`, `:work`) serves its own metrics on, so it runs beside
   * `start` on one machine (`METRICS_WORKER_PORT`, default 9465); `false`: a worker serves none.
   */
  readonly workerPort?: number | false;
  /** The address the metrics port listens on (`METRICS_HOST`; default the app's host under `start`, else `127.0.0.1`). */
  readonly host?: string;
  /** The bearer token a scrape must send (`METRICS_TOKEN`); required with `port: false`. */
  readonly token?: string;
  /** A prefix for every metric name (`shop_`), default none. */
  readonly prefix?: string;
  /** Labels added to every series (`{ service: "shop" }`). */
  readonly labels?: Readonly<Record<string, string>>;
  /** The latency histogram's buckets in seconds (default 5 ms to 10 s). */
  readonly buckets?: readonly number[];
  /** Node's process metrics and event-loop delay (prom-client's defaults; default true). */
  readonly processMetrics?: boolean;
}

/** The `tracing` block (or the standard `OTEL_*` environment variables). */
export interface TracingConfig {
  /** Trace requests (default: true when `OTEL_TRACES_EXPORTER` or an OTLP endpoint variable is set). */
  readonly enabled?: boolean;
  /** `"otlp"` (default; OTLP over HTTP), `"console"`, `"none"`, or a `SpanExporter` (tests). */
  readonly exporter?: "otlp" | "console" | "none" | SpanExporterLike;
  /** The `service.name` of the spans (default `OTEL_SERVICE_NAME`, else `appName`, else `app`). */
  readonly serviceName?: string;
}

/** The config keys the observability battery reads, as an app writes them. */
export interface ObservabilityAppConfig {
  /** Prometheus metrics. */
  readonly metrics?: MetricsConfig;
  /** OpenTelemetry traces. */
  readonly tracing?: TracingConfig;
  /** The request id (and trace) on every line of the app's logger, also without tracing (default false). */
  readonly logContext?: boolean;
}

// Compile-time: the start-up check's declaration lists exactly these keys.
const observabilityKeysAgree: ConfigKeysAgree<typeof OBSERVABILITY_CONFIG_KEYS, ObservabilityAppConfig> = true;
void observabilityKeysAgree;

declare module "@fwkit/koa-host" {
  // eslint-disable-next-line @typescript-eslint/no-empty-interface -- the merge is the point
  interface AppConfig extends ObservabilityAppConfig {}
}

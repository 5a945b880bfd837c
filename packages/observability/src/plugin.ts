/**
 * The observability battery as a host plugin: metrics (request metrics in front of everything,
 * the batteries' metrics from the telemetry channels, a metrics port or a token-guarded path),
 * traces (a server span per request, a view span per route, spans for operations) and request
 * context on log lines. What is off installs nothing: no middleware, no listener, no scope.
 */
import type { Server } from "node:http";
import type { AppConfig } from "@fwkit/koa-host";
import { hasPrimaryParts, processRole } from "@fwkit/battery-kit";
import type { HostPlugin } from "@fwkit/koa-host/plugin";
import type { Middleware } from "koa";
import compose from "koa-compose";
import type { Logger } from "pino";
import { OBSERVABILITY_CONFIG_KEYS } from "./config.js";
import { logFields, logScope } from "./log-context.js";
import { listenMetrics, metricsRoute, type Collect } from "./metrics/endpoint.js";
import { probePaths, unless } from "./metrics/http.js";
import { createAppMetrics, type AppMetrics } from "./metrics/registry.js";
import { answerSnapshots, nodeMetrics, servedByPrimary } from "./metrics/worker.js";
import { observabilitySettings, type ObservabilitySettings } from "./settings.js";
import { startTracing, type TracingSdk } from "./tracing/sdk.js";
import { serverSpan, viewSpan } from "./tracing/request-spans.js";
import { rootSampling } from "./tracing/sampling.js";
import { operationSpans } from "./tracing/spans.js";

/** The observability plugin, with what it measures for tests and tools. */
export interface ObservabilityPlugin extends HostPlugin {
  /** The checked settings. */
  readonly settings: ObservabilitySettings;
  /** The address of the metrics port this process serves (single process), once set up. */
  metricsAddress(): string | undefined;
}

/** Options of {@link observabilityPlugin}. */
export interface ObservabilityOptions {
  /** The app's resolved config (the battery reads `metrics`, `tracing`, `logContext`). */
  readonly config: AppConfig;
  /** Where the SDK's start-up lines go before the host's logger exists (default: none). */
  readonly logger?: Logger;
}

const silent = { debug: () => undefined } as unknown as Logger;

/**
 * Makes the plugin. Settings are checked here (a wrong key stops the start) and tracing starts here,
 * before the other batteries load their drivers, so the Redis instrumentation sees ioredis loaded.
 */
export function observabilityPlugin(options: ObservabilityOptions): ObservabilityPlugin {
  const { config } = options;
  const settings = observabilitySettings(config);
  const { metrics: metricsSettings, tracing } = settings;
  let sdk: TracingSdk | undefined = tracing.enabled ? startTracing(tracing, options.logger ?? silent) : undefined;
  let metrics: AppMetrics | undefined;
  let server: Server | undefined;
  const stops: Array<() => void> = [];
  const inCluster = hasPrimaryParts();
  // Under a sampler that never samples a root, read once here, no request is in a trace: requests
  // then get what tracing off gives them (the log scope only with `logContext`), so a request costs
  // nothing for tracing. Operations (jobs, queries outside requests) still ask the sampler.
  const sampling = tracing.enabled ? rootSampling() : undefined;
  const requestSpans = tracing.enabled && sampling !== "never";

  return {
    name: "observability",
    configKeys: OBSERVABILITY_CONFIG_KEYS,
    settings,
    metricsAddress() {
      const address = server?.address();
      return address && typeof address === "object" ? `${address.address}:${address.port}` : undefined;
    },
    async setup() {
      if (tracing.enabled) stops.push(operationSpans());
      if (!metricsSettings.enabled) return;
      const created = createAppMetrics(metricsSettings, config.static?.prefix ?? "/static");
      metrics = created;
      stops.push(() => created.close());
      // The metrics port is the web server's: a job worker has one of its own, a one-off command
      // (a listing, the console, a script) none, so each runs beside start with one environment.
      const role = processRole();
      if (role === "command") return;
      if (role === "worker") {
        if (metricsSettings.workerPort !== false)
          server = await listenMetrics({ ...metricsSettings, port: metricsSettings.workerPort }, () => created.text());
        return;
      }
      if (inCluster) {
        stops.push(answerSnapshots(() => created.snapshot()));
        if (metricsSettings.port !== false) await servedByPrimary(metricsSettings);
      } else if (metricsSettings.port !== false) {
        server = await listenMetrics(metricsSettings, () => created.text());
      }
    },
    phases: {
      front() {
        const steps: Middleware[] = [];
        if (metrics && metricsSettings.port === false && processRole() === "serve") {
          const own = metrics;
          // In a cluster worker, the node's sum through the primary; else this process's metrics.
          const collect: Collect = inCluster ? nodeMetrics : () => own.text();
          steps.push(metricsRoute(metricsSettings, collect));
        }
        // With request spans, the server span's context carries the request for the log fields.
        if (settings.logContext && !requestSpans) steps.push(logScope);
        const skip = probePaths(config as { healthPath?: unknown; readyPath?: unknown });
        if (requestSpans) steps.push(unless(skip, serverSpan({ sampling, requestInContext: settings.logContext })));
        if (steps.length === 0) return undefined;
        return steps.length === 1 ? steps[0] : (compose(steps) as Middleware);
      },
      route(route) {
        return requestSpans ? viewSpan(route, { spans: settings.tracing.viewSpans }) : undefined;
      },
    },
    // The request metrics are timed by the host's front layer (health probes are not measured).
    requestTimer() {
      return metrics?.http;
    },
    logFields() {
      return requestSpans || settings.logContext ? logFields(requestSpans) : undefined;
    },
    async close() {
      for (const stop of stops.splice(0)) stop();
      if (server) {
        const closing = server;
        server = undefined;
        closing.closeAllConnections?.();
        await new Promise<void>((resolve) => closing.close(() => resolve()));
      }
      const running = sdk;
      sdk = undefined;
      await running?.close();
    },
  };
}

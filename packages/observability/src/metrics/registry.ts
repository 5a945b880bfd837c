/**
 * One app's metrics: a prom-client registry holding the request metrics, the batteries' metrics
 * and (when on) Node's process metrics, read together with the app's own metrics at each scrape.
 */
import type { MetricObjectWithValues, MetricValue } from "prom-client";
import type { MetricsSettings } from "../settings.js";
import { appRegistry } from "./app-metrics.js";
import { promClient } from "./prom.js";
import { batteryMetrics } from "./batteries.js";
import { httpMetrics, routeLabel, type HttpMetrics } from "./http.js";
import { knexMetrics } from "./knex.js";

/** A worker's metrics as JSON (what the cluster primary sums). */
export type MetricsSnapshot = MetricObjectWithValues<MetricValue<string>>[];

/** The metrics of one app. */
export interface AppMetrics {
  readonly http: HttpMetrics;
  /** The Prometheus text of this process. */
  text(): Promise<string>;
  /** This process's metrics as JSON, for the cluster primary. */
  snapshot(): Promise<MetricsSnapshot>;
  /** Stops listening to the batteries. */
  close(): void;
}

/** The content type of the Prometheus text format. */
export const CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** Builds an app's metrics from checked settings; `staticPrefix` labels static files. */
export function createAppMetrics(settings: MetricsSettings, staticPrefix: string): AppMetrics {
  const registry = new (promClient().Registry)();
  registry.setDefaultLabels({ ...settings.labels });
  if (settings.processMetrics) promClient().collectDefaultMetrics({ register: registry, prefix: settings.prefix });
  const http = httpMetrics(registry, settings, routeLabel(staticPrefix));
  const stop = batteryMetrics(registry, settings.prefix, knexMetrics(registry, settings.prefix));
  // The app's own metrics get this app's default labels too (their registry is shared by the process).
  const labelledAppMetrics = async (): Promise<MetricsSnapshot> =>
    ((await appRegistry().getMetricsAsJSON()) as MetricsSnapshot).map((metric) => ({
      ...metric,
      values: metric.values.map((value) => ({ ...value, labels: { ...settings.labels, ...value.labels } })),
    }));
  return {
    http,
    async text() {
      const app = await labelledAppMetrics();
      const own = await registry.metrics();
      return app.length === 0 ? own : `${own}\n${await promClient().AggregatorRegistry.aggregate([app]).metrics()}`;
    },
    snapshot: async () => [
      ...((await registry.getMetricsAsJSON()) as MetricsSnapshot),
      ...(await labelledAppMetrics()),
    ],
    close: stop,
  };
}

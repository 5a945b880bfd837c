/**
 * @module @fwkit/observability/plugin
 * What the sibling packages build on: the battery's settings readers, name checks and the cluster
 * primary's metrics collector. Not the API of an app.
 */
export { checkLabelName, checkMetricName } from "./metrics/names.js";
export {
  metricsSettings,
  observabilitySettings,
  tracingSettings,
  DEFAULT_BUCKETS,
  DEFAULT_METRICS_PORT,
  type MetricsSettings,
  type ObservabilitySettings,
  type TracingSettings,
} from "./settings.js";
export { PRIMARY_MODULE } from "./metrics/worker.js";

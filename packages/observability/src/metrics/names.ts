import { E_METRIC_NAME } from "../errors.js";

// Prometheus' data model: https://prometheus.io/docs/concepts/data_model/
const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Returns `name` when Prometheus takes it as a metric name; else E_METRIC_NAME naming `what`. */
export function checkMetricName(name: string, what = "metric name", shown: unknown = name): string {
  if (typeof name !== "string" || !METRIC_NAME.test(name)) throw new E_METRIC_NAME(what, shown as string);
  return name;
}

/** Returns `name` when Prometheus takes it as a label name (not `__`-prefixed, which is reserved). */
export function checkLabelName(name: string, what = "label name"): string {
  if (typeof name !== "string" || !LABEL_NAME.test(name) || name.startsWith("__")) throw new E_METRIC_NAME(what, name);
  return name;
}

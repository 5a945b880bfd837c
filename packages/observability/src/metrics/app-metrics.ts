/**
 * An app's own metrics (`signups_total`...): made with prom-client's classes on one registry every
 * scrape includes, with their names checked first (E_METRIC_NAME at start-up, not a scrape
 * Prometheus refuses later).
 */
import {
  Counter,
  Gauge,
  Histogram,
  Registry,
  type CounterConfiguration,
  type GaugeConfiguration,
  type HistogramConfiguration,
} from "prom-client";
import { checkLabelName, checkMetricName } from "./names.js";

/** The registry of the app's own metrics, scraped with the framework's. */
export const appRegistry = new Registry();

function checked<T extends { name: string; labelNames?: readonly string[] }>(
  options: T,
): T & { registers: Registry[] } {
  checkMetricName(options.name);
  for (const label of options.labelNames ?? []) checkLabelName(label);
  return { ...options, registers: [appRegistry] };
}

/** A counter of the app's own (`defineCounter({ name: "signups_total", help: "...", labelNames: ["plan"] })`). */
export function defineCounter<T extends string>(options: CounterConfiguration<T>): Counter<T> {
  return new Counter(checked(options));
}

/** A gauge of the app's own. */
export function defineGauge<T extends string>(options: GaugeConfiguration<T>): Gauge<T> {
  return new Gauge(checked(options));
}

/** A histogram of the app's own (seconds: name it `..._seconds`). */
export function defineHistogram<T extends string>(options: HistogramConfiguration<T>): Histogram<T> {
  return new Histogram(checked(options));
}

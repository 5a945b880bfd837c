/**
 * An app's own metrics (`signups_total`...): made with prom-client's classes on one registry every
 * scrape includes, with their names checked first (E_METRIC_NAME at start-up, not a scrape
 * Prometheus refuses later).
 */
import type {
  Counter,
  CounterConfiguration,
  Gauge,
  GaugeConfiguration,
  Histogram,
  HistogramConfiguration,
  Registry,
} from "prom-client";
import { checkLabelName, checkMetricName } from "./names.js";
import { promClient } from "./prom.js";

let registry: Registry | undefined;

/** The registry of the app's own metrics, scraped with the framework's (made, with prom-client loaded, on first use). */
export function appRegistry(): Registry {
  registry ??= new (promClient().Registry)();
  return registry;
}

function checked<T extends { name: string; labelNames?: readonly string[] }>(
  options: T,
): T & { registers: Registry[] } {
  checkMetricName(options.name);
  for (const label of options.labelNames ?? []) checkLabelName(label);
  return { ...options, registers: [appRegistry()] };
}

/** A counter of the app's own (`defineCounter({ name: "signups_total", help: "...", labelNames: ["plan"] })`). */
export function defineCounter<T extends string>(options: CounterConfiguration<T>): Counter<T> {
  return new (promClient().Counter)(checked(options));
}

/** A gauge of the app's own. */
export function defineGauge<T extends string>(options: GaugeConfiguration<T>): Gauge<T> {
  return new (promClient().Gauge)(checked(options));
}

/** A histogram of the app's own (seconds: name it `..._seconds`). */
export function defineHistogram<T extends string>(options: HistogramConfiguration<T>): Histogram<T> {
  return new (promClient().Histogram)(checked(options));
}

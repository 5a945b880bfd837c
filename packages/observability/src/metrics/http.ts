/**
 * The request metrics: latency by route, method and status class, requests in flight, request and
 * response sizes. Labels stay bounded: a route's name (never its path), a known method or `OTHER`,
 * a status class.
 */
import type { Context, Middleware } from "koa";
import type { Registry } from "prom-client";
import { promClient } from "./prom.js";
import { responseBytes, routeNameOf, type RequestTimer } from "@fwkit/koa-host/plugin";
import type { MetricsSettings } from "../settings.js";
import { RouteHistogram } from "./route-histogram.js";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const STATUS_CLASSES = ["1xx", "1xx", "2xx", "3xx", "4xx", "5xx"];
const SIZE_BUCKETS = [100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000];

/** The label of a request's route: its name, `static` for a static file, else `unmatched`. */
export type RouteLabel = (ctx: Context) => string;

/** Labels a request by route name; a request no route answered is `static` (under the static prefix) or `unmatched`. */
export function routeLabel(staticPrefix: string): RouteLabel {
  const under = `${staticPrefix.replace(/\/+$/, "")}/`;
  return (ctx) => routeNameOf(ctx) ?? (ctx.status !== 404 && ctx.path.startsWith(under) ? "static" : "unmatched");
}

/**
 * The request metrics of one app, registered on `registry`: the host's front layer calls them as
 * each request begins and once its answer is decided (no middleware layer, no promise of their own).
 */
export interface HttpMetrics extends RequestTimer {
  start(ctx: Context): void;
}

/**
 * Registers the request metrics and returns their timer. A known route's cells are found by two
 * map reads (route, then method) per histogram: a request allocates nothing for its metrics.
 * Requests in flight are a counter the gauge reads at each scrape.
 */
export function httpMetrics(registry: Registry, settings: MetricsSettings, label: RouteLabel): HttpMetrics {
  const p = settings.prefix;
  const duration = new RouteHistogram({
    name: `${p}http_request_duration_seconds`,
    help: "Time from a request's arrival to its answer, by route name, method and status class.",
    labelNames: ["route", "method", "status"],
    buckets: settings.buckets,
    registry,
  });
  let inFlight = 0;
  new (promClient().Gauge)({
    name: `${p}http_requests_in_flight`,
    help: "Requests being answered now.",
    registers: [registry],
    collect() {
      this.set(inFlight);
    },
  });
  const requestSize = new RouteHistogram({
    name: `${p}http_request_size_bytes`,
    help: "Request body sizes (Content-Length), by route name and method.",
    labelNames: ["route", "method"],
    buckets: SIZE_BUCKETS,
    registry,
  });
  const responseSize = new RouteHistogram({
    name: `${p}http_response_size_bytes`,
    help: "Response body sizes when known, by route name and method.",
    labelNames: ["route", "method"],
    buckets: SIZE_BUCKETS,
    registry,
  });
  return {
    start() {
      inFlight++;
    },
    end(ctx, start) {
      inFlight--;
      const route = label(ctx);
      const method = METHODS.has(ctx.method) ? ctx.method : "OTHER";
      const index = Math.min(Math.floor(ctx.status / 100), 5);
      duration.cell(route, method, index, STATUS_CLASSES[index]).observe((performance.now() - start) / 1000);
      const received = Number(ctx.req.headers["content-length"]);
      if (received > 0) requestSize.cell(route, method).observe(received);
      const sent = responseBytes(ctx);
      if (typeof sent === "number") responseSize.cell(route, method).observe(sent);
    },
  };
}

/** True for the requests metrics leave out: the health probes (a balancer asks every few seconds). */
export function probePaths(config: {
  readonly healthPath?: unknown;
  readonly readyPath?: unknown;
}): (ctx: Context) => boolean {
  const paths = new Set<string>();
  for (const [value, fallback] of [
    [config.healthPath, "/healthz"],
    [config.readyPath, "/readyz"],
  ] as const) {
    if (value !== false) paths.add(typeof value === "string" ? value : fallback);
  }
  return (ctx) => paths.has(ctx.path);
}

/** Wraps a step so it runs only for requests `skip` does not pick out. */
export function unless(skip: (ctx: Context) => boolean, step: Middleware): Middleware {
  return (ctx, next) => (skip(ctx) ? next() : step(ctx, next));
}

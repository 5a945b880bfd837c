/**
 * @module @fwkit/observability/primary
 * The metrics of a node, in the cluster primary of `start --workers N` (run there through the
 * host's primary parts): one scrape asks every worker for its metrics and answers their sum
 * (prom-client's `AggregatorRegistry.aggregate`). A worker that dies takes its counters with it,
 * which Prometheus would read as a counter reset of the whole node: its counters and histograms
 * as of its last scrape are kept and added, so the node's totals only grow.
 */
import cluster, { type Worker } from "node:cluster";
import type { Server } from "node:http";
import { promClient } from "./prom.js";
import { E_METRICS_UNAVAILABLE } from "../errors.js";
import { listenMetrics } from "./endpoint.js";
import type { MetricsSnapshot } from "./registry.js";
import type { SnapshotAnswer, SnapshotRequest } from "./worker.js";

/** What a worker asks: serve the metrics port, or the node's metrics as text. */
export type MetricsPartRequest =
  | {
      readonly op: "serve";
      readonly port: number;
      readonly host: string;
      readonly path: string;
      readonly token?: string;
    }
  | { readonly op: "collect" };

// A worker that does not answer in this time counts with its last snapshot.
const ANSWER_MS = 2000;

const snapshots = new Map<number, MetricsSnapshot>();
let retired: MetricsSnapshot = [];
let served: { readonly key: string; readonly server: Promise<Server> } | undefined;
let watching = false;
let nextId = 0;

/** Keeps the counters and histograms of a worker that ended (see the module comment). */
async function retire(worker: Worker): Promise<void> {
  const last = snapshots.get(worker.id);
  snapshots.delete(worker.id);
  if (!last) return;
  const kept = last.filter((metric) => String(metric.type) === "counter" || String(metric.type) === "histogram");
  retired = (await promClient().AggregatorRegistry.aggregate([retired, kept]).getMetricsAsJSON()) as MetricsSnapshot;
}

function watchWorkers(): void {
  if (watching) return;
  watching = true;
  cluster.on("exit", (worker) => void retire(worker));
}

/** One worker's metrics, or `undefined` when it does not answer in time. */
function snapshotOf(worker: Worker): Promise<MetricsSnapshot | undefined> {
  const id = ++nextId;
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(undefined), ANSWER_MS);
    const listener = (message: unknown) => {
      const answer = message as SnapshotAnswer;
      if (answer?.fw === "metrics-snapshot-answer" && answer.id === id) done(answer.metrics);
    };
    const done = (metrics: MetricsSnapshot | undefined) => {
      clearTimeout(timer);
      worker.off("message", listener);
      resolve(metrics);
    };
    worker.on("message", listener);
    worker.send({ fw: "metrics-snapshot", id } satisfies SnapshotRequest);
  });
}

/** The node's metrics: every live worker's (or its last known), plus those of workers that ended. */
export async function collectNode(): Promise<string> {
  const live = Object.values(cluster.workers ?? {}).filter(
    (worker): worker is Worker => worker?.isConnected() === true,
  );
  await Promise.all(
    live.map(async (worker) => {
      const metrics = await snapshotOf(worker);
      if (metrics) snapshots.set(worker.id, metrics);
    }),
  );
  const all = [retired, ...snapshots.values()];
  if (all.every((metrics) => metrics.length === 0)) throw new E_METRICS_UNAVAILABLE("no worker answered");
  return promClient().AggregatorRegistry.aggregate(all).metrics();
}

/** The primary part: serves the node's metrics port once, or answers a scrape made on a worker's port. */
export async function primaryPart(request: MetricsPartRequest): Promise<unknown> {
  watchWorkers();
  if (request.op === "collect") return collectNode();
  const key = `${request.host}:${request.port}${request.path}`;
  if (served && served.key === key) {
    await served.server;
    return true;
  }
  const server = listenMetrics(
    { port: request.port, host: request.host, path: request.path, token: request.token },
    collectNode,
  );
  served = { key, server };
  // A later worker asking again after a failure tries again (the port may be free by then).
  server.catch(() => {
    if (served?.server === server) served = undefined;
  });
  await server;
  return true;
}

/**
 * A cluster worker's side of the node's metrics: it answers the primary's snapshot requests with
 * its registry as JSON, and asks the primary (once per node) to serve the metrics port.
 */
import { askPrimary } from "@fwkit/battery-kit";
import { E_METRICS_PORT_IN_USE, E_METRICS_UNAVAILABLE } from "../errors.js";
import type { MetricsSettings } from "../settings.js";
import type { MetricsSnapshot } from "./registry.js";

/** The module the primary runs for metrics (this package's primary.ts, or its built primary.js). */
export const PRIMARY_MODULE = new URL(`./primary${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`, import.meta.url)
  .href;

/** The primary asks a worker for its metrics. */
export interface SnapshotRequest {
  readonly fw: "metrics-snapshot";
  readonly id: number;
}

/** A worker's answer. */
export interface SnapshotAnswer {
  readonly fw: "metrics-snapshot-answer";
  readonly id: number;
  readonly metrics: MetricsSnapshot;
}

/** Answers the primary's snapshot requests; the result stops answering. */
export function answerSnapshots(snapshot: () => Promise<MetricsSnapshot>): () => void {
  const listener = (message: unknown) => {
    const request = message as SnapshotRequest;
    if (request?.fw !== "metrics-snapshot") return;
    void snapshot().then((metrics) =>
      process.send?.({ fw: "metrics-snapshot-answer", id: request.id, metrics } satisfies SnapshotAnswer),
    );
  };
  process.on("message", listener);
  return () => void process.off("message", listener);
}

/**
 * How long a worker's start waits for the primary to open the metrics port: the primary loads the
 * metrics module first, which a busy machine (a load average of 30 on 2 cores) makes take well
 * over the 5 s a scrape waits. A primary that does not answer still fails the start.
 */
const SERVE_TIMEOUT_MS = 60_000;

/** Asks the primary to serve the node's metrics port; a busy port fails this worker's start. */
export async function servedByPrimary(settings: MetricsSettings): Promise<void> {
  const { port, host, path, token } = settings;
  try {
    await askPrimary(PRIMARY_MODULE, { op: "serve", port, host, path, token }, SERVE_TIMEOUT_MS);
  } catch (error) {
    if ((error as { code?: string }).code === "E_METRICS_PORT_IN_USE")
      throw new E_METRICS_PORT_IN_USE(`${host}:${port}`);
    throw error;
  }
}

/** The node's metrics (every worker summed), read through the primary: for `port: false`. */
export async function nodeMetrics(): Promise<string> {
  try {
    return (await askPrimary(PRIMARY_MODULE, { op: "collect" })) as string;
  } catch (error) {
    throw new E_METRICS_UNAVAILABLE((error as Error).message);
  }
}

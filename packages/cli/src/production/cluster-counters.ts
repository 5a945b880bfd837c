/**
 * The primary's half of the attempt counters shared by the workers of one node: under
 * `start --workers N` the primary keeps one set of counters and answers each worker's requests on
 * the cluster channel. The worker's half (`clusterCounters()`) and the answer to one request live
 * in the host, which a serving process loads without the cluster runner.
 */
import type { Worker } from "node:cluster";
import { WindowCounts } from "@fwkit/battery-kit";
import { answerCounterRequest } from "@fwkit/battery-kit/host";

let primaryCounts: WindowCounts | undefined;

/** Answers `worker`'s counter requests from the node's one set of counters. */
export function serveClusterCounters(worker: Worker): void {
  if (!primaryCounts) {
    const counts = new WindowCounts();
    primaryCounts = counts;
    setInterval(() => counts.sweep(), 60_000).unref();
  }
  const counts = primaryCounts;
  worker.on("message", (message: unknown) => {
    const answer = answerCounterRequest(counts, message);
    if (answer && worker.isConnected()) worker.send(answer);
  });
}

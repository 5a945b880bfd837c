/**
 * The primary's half of the batteries' primary parts (the observability battery's metrics port,
 * which sums the workers): a worker asks, the host's `answerPartRequest` runs the module the worker
 * names, and the answer goes back on the worker's channel. The worker's half (`askPrimary`) lives in
 * the host.
 */
import type { Worker } from "node:cluster";
import { answerPartRequest } from "@fwkit/battery-kit/host";

/** Answers `worker`'s asks for primary parts. */
export function servePrimaryParts(worker: Worker): void {
  worker.on("message", (message: unknown) => {
    void answerPartRequest(message, worker)?.then((answer) => {
      // The worker may be gone by the time the answer is ready (it gave up waiting, or died): the
      // write then fails with EPIPE, which without a callback is an 'error' event nobody handles
      // and stops the primary. The worker's exit is handled (and it is replaced) elsewhere.
      if (worker.isConnected()) worker.send(answer, () => {});
    });
  });
}

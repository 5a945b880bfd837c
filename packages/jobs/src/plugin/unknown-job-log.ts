/**
 * A job this process's workers do not know (a newer version of the app dispatched it during a
 * rolling deploy, or its module was removed) is put back for a worker that knows it: each time is
 * a warning in this process's log, so a job no worker ever knows is heard of before it fails.
 */
import type { PluginContext } from "@fwkit/koa-host/plugin";
import type { JobQueue } from "../queue.js";

/** Logs each job the queue's workers left for another worker; returns the function that stops it. */
export function logUnknownJobs(queue: JobQueue, logger: PluginContext["logger"]): () => void {
  return queue.events.on("deferred", ({ name, queue: queueName, id, deferrals, delayMs }) => {
    logger.warn(
      { job: name, queue: queueName, id, deferrals, delayMs, code: "E_JOB_UNKNOWN" },
      `job ${name} (${queueName}:${id}) is not a job of this worker (another version of the app?): left for a worker that knows it, looked at again in ${delayMs} ms (time ${deferrals}); it fails with E_JOB_UNKNOWN once it has waited jobs.unknownJobWait`,
    );
  });
}

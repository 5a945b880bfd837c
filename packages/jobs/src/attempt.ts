/**
 * One attempt of a job: a new instance of its class, its handle called with the context, bounded
 * by the job's timeout (the attempt fails with `E_JOB_TIMEOUT` and its signal aborts).
 */
import type { RunnableJob } from "./drivers/types.js";
import { E_JOB_TIMEOUT } from "./errors.js";
import type { JobContext } from "./job.js";
import type { JobEntry } from "./settings.js";

/** Runs one attempt of `job` (a registered `entry`); `context(signal)` builds what handle gets. */
export async function runAttempt(
  entry: JobEntry,
  job: RunnableJob,
  context: (signal: AbortSignal) => JobContext,
): Promise<unknown> {
  // The job's own signal aborts on the worker's grace and on the timeout.
  const abort = new AbortController();
  const forward = () => abort.abort(job.signal.reason);
  if (job.signal.aborted) forward();
  else job.signal.addEventListener("abort", forward, { once: true });
  let timer: NodeJS.Timeout | undefined;
  try {
    const work = Promise.resolve().then(() => new entry.job().handle(job.payload, context(abort.signal)));
    if (entry.timeoutMs === undefined) return await work;
    const ms = entry.timeoutMs;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new E_JOB_TIMEOUT(entry.name, ms);
        abort.abort(error);
        reject(error);
      }, ms);
    });
    // The work's own late rejection has nowhere to go once the timeout answered.
    work.catch(() => {});
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
    job.signal.removeEventListener("abort", forward);
  }
}

/**
 * Failed jobs are heard of where they fail: each failed attempt is a warning, the last one an
 * error, in the log of the process that ran it (the web process in development, the worker in
 * production). The queue itself reports each on the host's telemetry (the observability battery's
 * `job_failures_total`, see failure-report.ts). A line is written while the job's trace is
 * active, so with tracing on it carries the trace id.
 */
import type { PluginContext } from "@fwkit/koa-host/plugin";
import type { JobEventMap } from "../events.js";
import type { JobQueue } from "../queue.js";

/** The one-line reason of an error. */
function reasonOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Logs one failed attempt; what {@link logJobFailures} does per event. */
export function logJobFailure(logger: PluginContext["logger"], event: JobEventMap["failed"]): void {
  const { name, queue, id, attempt, maxAttempts, error, final } = event;
  const code = (error as { code?: unknown } | undefined)?.code;
  const fields = {
    job: name,
    queue,
    id,
    attempt,
    maxAttempts,
    ...(typeof code === "string" ? { code } : {}),
    err: error,
  };
  if (final) {
    const tries =
      attempt >= maxAttempts
        ? `after ${attempt} attempt${attempt === 1 ? "" : "s"}`
        : `at attempt ${attempt} (not retried)`;
    logger.error(fields, `job ${name} (${queue}:${id}) failed ${tries} and is kept as failed: ${reasonOf(error)}`);
  } else {
    logger.warn(
      fields,
      `job ${name} (${queue}:${id}) failed attempt ${attempt} of ${maxAttempts}, will retry: ${reasonOf(error)}`,
    );
  }
}

/** Logs every failed attempt of the queue's jobs run in this process; returns the function that stops it. */
export function logJobFailures(queue: JobQueue, logger: PluginContext["logger"]): () => void {
  return queue.events.on("failed", (event) => logJobFailure(logger, event));
}

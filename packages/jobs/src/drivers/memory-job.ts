/** The records of the in-process queue: a job with its state, a worker, and their small helpers. */
import type { FailedJob, QueuedJob, WorkOptions } from "./types.js";

/** Where a job of the in-process queue is. */
export type MemoryJobState = "waiting" | "delayed" | "active" | "completed" | "failed";

/** A job of the in-process queue. */
export interface MemoryJob extends QueuedJob {
  readonly id: string;
  /** Dispatch order, for FIFO among equals. */
  readonly seq: number;
  state: MemoryJobState;
  attemptsMade: number;
  /** When it may run (delayed jobs and retries after their backoff). */
  runAt: number;
  error: string | undefined;
  stack: string | undefined;
  finishedAt: number | undefined;
}

/** A worker of the in-process queue. */
export interface MemoryWorker {
  readonly queues: ReadonlySet<string>;
  readonly concurrency: number;
  readonly run: WorkOptions["run"];
  readonly running: Map<MemoryJob, AbortController>;
  stopped: boolean;
}

/** The order of waiting jobs: no priority (0) first, then 1, 2... as BullMQ. */
export const rank = (job: MemoryJob): number => job.options.priority ?? 0;

/** Resolves after `ms` without holding the process. */
export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** Resolves once `job` leaves the active state. */
export function untilSettled(job: MemoryJob): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (job.state === "active" ? setTimeout(check, 10) : resolve());
    check();
  });
}

/** A failed job as the queue's failed() lists it. */
export function toFailedJob(job: MemoryJob): FailedJob {
  return {
    ref: `${job.options.queue}:${job.id}`,
    id: job.id,
    queue: job.options.queue,
    name: job.name,
    payload: job.payload,
    error: job.error ?? "",
    stack: job.stack,
    attemptsMade: job.attemptsMade,
    failedAt: job.finishedAt === undefined ? undefined : new Date(job.finishedAt),
  };
}

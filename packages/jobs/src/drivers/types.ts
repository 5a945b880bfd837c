/**
 * The interface every queue backend implements (BullMQ on Redis, the in-process queue, the inline
 * runner), so the queue, the worker runner and the CLI commands are written once.
 */
import type { ParsedSchedule, ScheduledRun } from "../schedule.js";
import type { ResolvedOptions } from "../settings.js";

/** Which backend a queue runs on. */
export type QueueKind = "bullmq" | "memory" | "sync";

/**
 * The trace context of whoever dispatched a job (W3C `traceparent`/`tracestate`), kept beside the
 * payload so the run continues that trace; absent when nobody traces.
 */
export type JobTrace = Readonly<Record<string, string>>;

/** A job to queue: its name, its payload as the schema output it, its options. */
export interface QueuedJob {
  readonly name: string;
  readonly payload: unknown;
  readonly options: ResolvedOptions;
  /** The dispatcher's trace context, only when an observer traces. */
  readonly trace?: JobTrace;
}

/** A job a worker runs. */
export interface RunnableJob {
  readonly id: string;
  readonly name: string;
  readonly queue: string;
  readonly payload: unknown;
  /** The dispatcher's trace context, when one was stored with the job. */
  readonly trace?: JobTrace | undefined;
  /** This attempt, from 1 (runs cut short by a stall count). */
  readonly attempt: number;
  readonly maxAttempts: number;
  /** Attempts that failed before this one (what decides a retry); `attempt - 1` when absent. */
  readonly failedBefore?: number;
  /** Aborted when the worker gives up on the job (the grace ran out). */
  readonly signal: AbortSignal;
}

/** Runs one job (finds its class, calls handle, reports events); rejects when the job fails. */
export type JobRunner = (job: RunnableJob) => Promise<unknown>;

/** A job kept after its last attempt failed. */
export interface FailedJob {
  /** `queue:id`, what retry() and the CLI take. */
  readonly ref: string;
  readonly id: string;
  readonly queue: string;
  readonly name: string;
  readonly payload: unknown;
  /** The message of the last error. */
  readonly error: string;
  /** Its stack, when kept. */
  readonly stack: string | undefined;
  readonly attemptsMade: number;
  readonly failedAt: Date | undefined;
}

/** How many jobs a queue holds in each state. */
export interface QueueCounts {
  readonly waiting: number;
  readonly active: number;
  readonly delayed: number;
  readonly failed: number;
  readonly completed: number;
}

/** What a driver's worker is told. */
export interface WorkOptions {
  readonly queues: readonly string[];
  /** Jobs run at once per queue. */
  readonly concurrency: number;
  readonly run: JobRunner;
  /** Whether this process has the job `name` (a job it does not know is left for a worker that does). */
  readonly knows: (name: string) => boolean;
}

/** A running worker of a driver. */
export interface DriverWorker {
  /**
   * Stops taking jobs and waits up to `graceMs` for the running ones; past it, gives them up (on
   * BullMQ, another worker's stalled check runs them again). `forced` says whether any was given up.
   */
  close(graceMs: number): Promise<{ forced: boolean }>;
}

/** A queue backend. */
export interface QueueDriver {
  readonly kind: QueueKind;
  /** Queues a job; resolves to its id (the given jobId when one was, even if that job was already queued). */
  add(job: QueuedJob): Promise<string>;
  /** Starts taking jobs from `queues`. */
  work(options: WorkOptions): Promise<DriverWorker>;
  /** The failed jobs of `queues`, newest first, at most `limit`. */
  failed(queues: readonly string[], limit: number): Promise<FailedJob[]>;
  /** Queues a failed job again; false when no failed job has that id. */
  retry(queue: string, id: string): Promise<boolean>;
  /** Queues every failed job of `queues` again; resolves to how many. */
  retryAll(queues: readonly string[]): Promise<number>;
  /** Removes the failed jobs of `queues`; resolves to how many. */
  clearFailed(queues: readonly string[]): Promise<number>;
  /** Makes the queue's schedules those of `schedules` on `queues` (adding, updating, removing the others). */
  syncSchedules(schedules: readonly ScheduleEntry[], queues: readonly string[]): Promise<void>;
  /** The schedules the queue holds and their next runs. */
  schedules(queues: readonly string[]): Promise<ScheduledRun[]>;
  /** Counts per queue name. */
  counts(queues: readonly string[]): Promise<Record<string, QueueCounts>>;
  /** Resolves when the backend answers (Redis: a round trip within the dispatch timeout); else `E_QUEUE_UNAVAILABLE`. */
  ping(): Promise<void>;
  /** Closes connections and timers. */
  close(): Promise<void>;
}

/** A job's schedule as a driver keeps it: the job, its checked schedule and payload, its options. */
export interface ScheduleEntry {
  readonly name: string;
  readonly schedule: ParsedSchedule;
  readonly payload: unknown;
  readonly options: ResolvedOptions;
}

/** What a driver is built with. */
export interface DriverContext {
  /** Runs a job inline (the sync driver calls it at dispatch). */
  readonly run: JobRunner;
  /** Reports a connection or worker error that is not a job's (Redis down, a lost lock). */
  readonly report: (error: unknown, where: string) => void;
  /** Reports a job this process found stalled (its worker died) and put back to run again. */
  readonly stalled: (queue: string, id: string) => void;
  /** Reports a job this process does not know, put back for `delayMs` for a worker that knows it. */
  readonly deferred: (event: { name: string; queue: string; id: string; deferrals: number; delayMs: number }) => void;
}

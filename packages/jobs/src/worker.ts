/**
 * The worker process's loop: take jobs from the queues, run the schedules, and on SIGTERM (or
 * SIGINT) stop taking jobs, give the running ones a grace to finish, then close. What the
 * `jobs:work` commands and `start --job-workers` run.
 */
import { checkOptionKeys } from "routing-kernel";
import { type Duration, toMs } from "./duration.js";
import { E_JOB_OPTION_INVALID, E_JOB_UNKNOWN } from "./errors.js";
import type { JobQueue } from "./queue.js";

/** What {@link runWorker} takes. */
export interface RunWorkerOptions {
  /** The queues to take jobs from (default: every queue a registered job uses). */
  readonly queues?: readonly string[];
  /** Jobs run at once per queue (default 1). */
  readonly concurrency?: number;
  /** How long a running job may go on after SIGTERM before it is given up to be retried (default `"30s"`). */
  readonly grace?: Duration;
  /** Upsert the registered jobs' schedules at start (default true). */
  readonly schedules?: boolean;
  /** The signals that stop the worker (default SIGTERM and SIGINT); `[]` leaves them to the caller, who calls stop(). */
  readonly signals?: readonly NodeJS.Signals[];
}

/** The option names {@link RunWorkerOptions} takes. */
export const RUN_WORKER_OPTION_KEYS = ["queues", "concurrency", "grace", "schedules", "signals"] as const;

/** How a worker ended. */
export interface WorkerStopped {
  /** True when the grace ran out and running jobs were given up (they run again on another worker). */
  readonly forced: boolean;
  /** The signal that stopped it, or undefined when stop() did. */
  readonly signal: NodeJS.Signals | undefined;
}

/** A running worker. */
export interface RunningWorker {
  /** Stops it as SIGTERM does; resolves when it is closed. */
  stop(): Promise<WorkerStopped>;
  /** Resolves when the worker has stopped (by a signal or stop()); the queue is closed by then. */
  readonly stopped: Promise<WorkerStopped>;
}

/**
 * Runs a worker on `queue` until SIGTERM/SIGINT (or stop()): takes jobs from `queues` with
 * `concurrency`, upserts the schedules, and at the end lets the running jobs finish within
 * `grace`, then closes the queue. The process stays up while it runs; the caller exits (0) once
 * `stopped` resolves.
 */
export async function runWorker(queue: JobQueue, options: RunWorkerOptions = {}): Promise<RunningWorker> {
  checkOptionKeys("runWorker() options", options, RUN_WORKER_OPTION_KEYS);
  const graceMs = toMs(options.grace ?? "30s", "runWorker()", "grace");
  const known = queue.queueNames();
  for (const name of options.queues ?? []) {
    if (!known.includes(name))
      throw new E_JOB_UNKNOWN(
        `queue ${name}`,
        known.map((queueName) => `queue ${queueName}`),
      );
  }
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new E_JOB_OPTION_INVALID("runWorker()", "concurrency", "a whole number of at least 1", concurrency);
  const signals = options.signals ?? (["SIGTERM", "SIGINT"] as const);
  // A signal during start-up is kept and acted on once the worker exists (not the default exit).
  let early: NodeJS.Signals | undefined;
  const onEarlySignal = (signal: NodeJS.Signals) => {
    early ??= signal;
  };
  for (const name of signals) process.on(name, onEarlySignal);
  let worker: Awaited<ReturnType<JobQueue["work"]>>;
  try {
    if (options.schedules !== false) await queue.syncSchedules();
    worker = await queue.work({ ...(options.queues ? { queues: options.queues } : {}), concurrency });
  } finally {
    for (const name of signals) process.off(name, onEarlySignal);
  }
  // Timers of the in-process queue do not hold the process; this does, until the worker stops.
  const keepAlive = setInterval(() => {}, 1 << 30);
  let resolveStopped!: (result: WorkerStopped) => void;
  const stopped = new Promise<WorkerStopped>((resolve) => {
    resolveStopped = resolve;
  });
  let stopping: Promise<WorkerStopped> | undefined;
  const stop = (signal?: NodeJS.Signals): Promise<WorkerStopped> => {
    stopping ??= (async () => {
      for (const name of signals) process.off(name, onSignal);
      let forced = true;
      try {
        ({ forced } = await worker.close(graceMs));
        await queue.close();
      } finally {
        clearInterval(keepAlive);
        resolveStopped({ forced, signal });
      }
      return { forced, signal };
    })();
    return stopping;
  };
  const onSignal = (signal: NodeJS.Signals) => void stop(signal);
  for (const name of signals) process.on(name, onSignal);
  if (early) void stop(early);
  return { stop: () => stop(), stopped };
}

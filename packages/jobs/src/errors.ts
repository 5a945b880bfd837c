/**
 * Errors raised by the jobs battery. Dispatch errors a request can meet carry a 4xx or 503 status
 * (a payload refused by its schema, a queue that is down); start-up ones say how to fix the app.
 */
import { createError } from "routing-kernel";

/**
 * A payload failed its job's schema at dispatch, or a worker found a queued payload its schema (or,
 * for a sealed job, its seal) refuses: that job is failed at once, without retries.
 */
export const E_JOB_PAYLOAD_INVALID = createError(
  "E_JOB_PAYLOAD_INVALID",
  422,
  (job: string, issues: string, where?: "queued") =>
    where === "queued"
      ? `The queued payload of the job ${job} was refused, so the job was failed without running: ${issues}. Only a payload the app's own dispatch made runs (not one added or edited by hand, e.g. on the dashboard); dispatch the job again from the app.`
      : `The payload given to ${job}.dispatch() does not match the job's schema: ${issues}. Dispatch the payload the schema declares.`,
);

/** A job class or `defineJob(...)` definition is malformed (no handle, a bad name, a bad option value). */
export const E_JOB_DEFINITION_INVALID = createError(
  "E_JOB_DEFINITION_INVALID",
  500,
  (job: string, reason: string) => `The job ${job} is invalid: ${reason}.`,
);

/** Two jobs registered on one queue share a name. */
export const E_JOB_NAME_TAKEN = createError(
  "E_JOB_NAME_TAKEN",
  500,
  (name: string, first: string, second: string) =>
    `Two jobs are named "${name}" (${first} and ${second}); a worker finds a job by its name. Rename one (static jobName = "...", or defineJob({ name })).`,
);

/** A job name (from the CLI, or a queued job a worker does not know) names no registered job. */
export const E_JOB_UNKNOWN = createError(
  "E_JOB_UNKNOWN",
  404,
  (name: string, known: readonly string[]) =>
    `There is no job named "${name}". Known jobs: ${known.length > 0 ? known.join(", ") : "(none: put job classes in jobs/)"}.`,
);

/** An attempt of a job ran longer than its `timeout`: it fails (and is retried), its `context.signal` aborts. */
export const E_JOB_TIMEOUT = createError(
  "E_JOB_TIMEOUT",
  500,
  (job: string, ms: number) =>
    `The job ${job} ran longer than its timeout of ${ms} ms, so this attempt failed and its context.signal was aborted. Make the work shorter, raise the job's timeout, or stop on context.signal.`,
);

/** A job gave up (`failJob(reason)`): it is kept as failed at once, without its remaining attempts. */
export const E_JOB_GAVE_UP = createError("E_JOB_GAVE_UP", 500, (reason: string) => reason);

/**
 * True for an error no retry can mend (a job name the worker's process does not know, a job that
 * gave up, a queued payload its schema or seal refuses): the job is failed at once instead of retried.
 */
export function isUnrecoverable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return code === E_JOB_UNKNOWN.code || code === E_JOB_GAVE_UP.code || code === E_JOB_PAYLOAD_INVALID.code;
}

/**
 * Ends the running job as failed now, skipping its remaining attempts (a retry would not help: the
 * user is gone, the payload can never work). It is kept with `reason` as its error; `jobs:retry`
 * runs it again. Call it (or `throw failJob(...)`) from `handle`.
 */
export function failJob(reason: string): never {
  throw new E_JOB_GAVE_UP(reason);
}

/** A module under `jobs/` failed to import. */
export const E_JOB_MODULE_FAILED = createError(
  "E_JOB_MODULE_FAILED",
  500,
  (file: string, reason: string) => `The job module ${file} failed to load: ${reason}`,
);

/** A dispatch option (`delay`, `attempts`, `backoff`, `priority`, `jobId`) or job setting has a wrong value. */
export const E_JOB_OPTION_INVALID = createError(
  "E_JOB_OPTION_INVALID",
  500,
  (where: string, option: string, expected: string, value: unknown) =>
    `${where}: the option ${option} must be ${expected}, not ${JSON.stringify(value) ?? String(value)}.`,
);

/** A job's schedule does not parse (a bad cron expression, time zone or interval). */
export const E_JOB_SCHEDULE_INVALID = createError(
  "E_JOB_SCHEDULE_INVALID",
  500,
  (job: string, schedule: string, reason: string) =>
    `The schedule of the job ${job} (${schedule}) is invalid: ${reason}. Write a cron expression such as "0 3 * * *" (minute hour day month weekday) with an IANA tz such as "Europe/Paris", or { every: "5m" }.`,
);

/** `QUEUE_URL` (the `url` option) is not a queue address this battery knows. */
export const E_QUEUE_URL_INVALID = createError(
  "E_QUEUE_URL_INVALID",
  500,
  (url: string, reason: string) =>
    `QUEUE_URL ${JSON.stringify(url)} is invalid: ${reason}. Use redis://[user:password@]host[:port][/db] (BullMQ, production), memory: (in the process, development) or sync: (each job runs as it is dispatched).`,
);

/** The queue (Redis) cannot take the job now: it is down or did not answer in time. */
export const E_QUEUE_UNAVAILABLE = createError(
  "E_QUEUE_UNAVAILABLE",
  503,
  (what: string, reason: string) =>
    `The job queue is unavailable, so ${what} could not be done: ${reason}. Try again shortly; check that Redis (QUEUE_URL) is up.`,
);

/** `Job.dispatch()` was called in a process where no queue was set up. */
export const E_JOB_NO_QUEUE = createError(
  "E_JOB_NO_QUEUE",
  500,
  (job: string) =>
    `${job}.dispatch() was called, but this process has no job queue. Turn the jobs battery on (QUEUE_URL), create one with createJobQueue(), or in a test use createFakeQueue() from @fwkit/jobs/testing.`,
);

/** A job reference given to retry (or the CLI) names no failed job. */
export const E_JOB_NOT_FOUND = createError(
  "E_JOB_NOT_FOUND",
  404,
  (ref: string) =>
    `There is no failed job ${JSON.stringify(ref)}. List them with the jobs:failed command (or queue.failed()) and pass an id it shows (queue:id).`,
);

/** A package a driver needs (bullmq, @bull-board/koa) is not installed. */
export const E_JOBS_DRIVER_MISSING = createError(
  "E_JOBS_DRIVER_MISSING",
  500,
  (user: string, name: string, reason: string) =>
    `The ${user} needs the package "${name}", which could not be loaded (${reason}). Install it (npm install ${name}) or set QUEUE_URL to memory: for development.`,
);

/** A job has a cron schedule and cron-parser (an optional peer of the jobs battery) is not installed. */
export const E_JOB_CRON_PARSER_MISSING = createError(
  "E_JOB_CRON_PARSER_MISSING",
  500,
  (user: string, name: string, reason: string) =>
    `The ${user} needs the package "${name}" to read cron expressions, which could not be loaded (${reason}). Install it (npm install ${name}), or give the job an interval ({ every: "1h" }), which needs no package.`,
);

/** The dashboard was asked of a queue that has no Redis behind it. */
export const E_JOBS_DASHBOARD_UNSUPPORTED = createError(
  "E_JOBS_DASHBOARD_UNSUPPORTED",
  500,
  (kind: string) =>
    `The jobs dashboard shows BullMQ queues, but QUEUE_URL is ${kind}. Point QUEUE_URL at Redis (redis://127.0.0.1:6379) to use it, or leave the dashboard off.`,
);

/** The queue was used after close(). */
export const E_QUEUE_CLOSED = createError(
  "E_QUEUE_CLOSED",
  500,
  (what: string) => `The job queue is closed, so ${what} is refused. Create a new one with createJobQueue().`,
);

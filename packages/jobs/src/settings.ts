/**
 * The checks of a job's settings and a dispatch's options, and the options a driver gets: every
 * duration in milliseconds, the job's own settings under the dispatch's.
 */
import { checkOptionKeys } from "routing-kernel";
import { type Duration, toMs } from "./duration.js";
import { E_JOB_DEFINITION_INVALID, E_JOB_OPTION_INVALID } from "./errors.js";
import {
  type BackoffOptions,
  DISPATCH_OPTION_KEYS,
  type DispatchOptions,
  JOB_SETTING_KEYS,
  type JobClass,
  jobNameOf,
} from "./job.js";
import { type ParsedSchedule, parseSchedule } from "./schedule.js";

/** The default attempts of a job (a first run and two retries). */
export const DEFAULT_ATTEMPTS = 3;
/** The default first wait of the exponential backoff. */
export const DEFAULT_BACKOFF_MS = 1000;
/** The queue of a job that names none. */
export const DEFAULT_QUEUE = "default";

/** The options a driver queues a job with. */
export interface ResolvedOptions {
  readonly queue: string;
  readonly attempts: number;
  readonly backoff: { readonly type: "exponential" | "fixed"; readonly delay: number };
  readonly delay: number;
  readonly priority: number | undefined;
  readonly jobId: string | undefined;
}

/** A registered job, its settings checked. */
export interface JobEntry {
  readonly name: string;
  readonly job: JobClass;
  readonly queue: string;
  readonly schedule: ParsedSchedule | undefined;
  /** The longest one attempt may run, in milliseconds, or undefined for no limit. */
  readonly timeoutMs: number | undefined;
  /** Whether its payload is kept encrypted on the queue (`sealed: true`). */
  readonly sealed: boolean;
}

const QUEUE_NAME = /^[A-Za-z0-9_.-]{1,100}$/;
const JOB_NAME = /^[A-Za-z0-9_.@/-]{1,200}$/;

function backoffOf(where: string, value: Duration | BackoffOptions): ResolvedOptions["backoff"] {
  if (typeof value === "object" && value !== null) {
    checkOptionKeys(`${where} backoff`, value, ["type", "delay"]);
    const { type, delay } = value;
    if (type !== "exponential" && type !== "fixed")
      throw new E_JOB_OPTION_INVALID(where, "backoff.type", '"exponential" or "fixed"', type);
    return { type, delay: toMs(delay, where, "backoff.delay") };
  }
  return { type: "exponential", delay: toMs(value as Duration, where, "backoff") };
}

function checkAttempts(where: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > 1000)
    throw new E_JOB_OPTION_INVALID(where, "attempts", "a whole number from 1 to 1000", value);
  return value;
}

function checkPriority(where: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > 2_097_152)
    throw new E_JOB_OPTION_INVALID(where, "priority", "a whole number from 1 to 2097152", value);
  return value;
}

/** Checks a job class at registration: its name, handle, schema, settings and schedule. */
export function checkJob(job: JobClass): JobEntry {
  const label = typeof job === "function" ? job.name || "(anonymous class)" : String(job);
  if (typeof job !== "function" || typeof job.prototype?.handle !== "function")
    throw new E_JOB_DEFINITION_INVALID(
      label,
      "a job is a class extending Job with a handle(payload, context) method, or defineJob({ name, schema, handle })",
    );
  const name = jobNameOf(job);
  if (typeof name !== "string" || !JOB_NAME.test(name))
    throw new E_JOB_DEFINITION_INVALID(
      label,
      `its name ${JSON.stringify(name)} must be 1-200 letters, digits or _ . @ / - (no colon)`,
    );
  const where = `The job ${name}`;
  const settings = job.options ?? {};
  checkOptionKeys(`${where}'s options`, settings, JOB_SETTING_KEYS);
  const queue = settings.queue ?? DEFAULT_QUEUE;
  if (typeof queue !== "string" || !QUEUE_NAME.test(queue))
    throw new E_JOB_OPTION_INVALID(where, "queue", "1-100 letters, digits or _ . - (no colon)", queue);
  if (settings.attempts !== undefined) checkAttempts(where, settings.attempts);
  if (settings.backoff !== undefined) backoffOf(where, settings.backoff);
  if (settings.priority !== undefined) checkPriority(where, settings.priority);
  const schedule = settings.schedule === undefined ? undefined : parseSchedule(name, settings.schedule);
  const timeoutMs = settings.timeout === undefined ? undefined : toMs(settings.timeout, where, "timeout");
  if (timeoutMs === 0) throw new E_JOB_OPTION_INVALID(where, "timeout", "longer than 0", settings.timeout);
  if (settings.sealed !== undefined && typeof settings.sealed !== "boolean")
    throw new E_JOB_OPTION_INVALID(where, "sealed", "true or false", settings.sealed);
  return { name, job, queue, schedule, timeoutMs, sealed: settings.sealed === true };
}

/** The options of one dispatch of `entry`: its own checked, over the job's settings. */
export function resolveOptions(entry: JobEntry, options: DispatchOptions | undefined): ResolvedOptions {
  const where = `${entry.name}.dispatch()`;
  checkOptionKeys(`${where} options`, options, DISPATCH_OPTION_KEYS);
  const given = options ?? {};
  const settings = entry.job.options ?? {};
  const attempts = given.attempts ?? settings.attempts;
  const backoff = given.backoff ?? settings.backoff;
  const priority = given.priority ?? settings.priority;
  if (
    given.jobId !== undefined &&
    (typeof given.jobId !== "string" || given.jobId === "" || given.jobId.includes(":") || /^\d+$/.test(given.jobId))
  ) {
    throw new E_JOB_OPTION_INVALID(
      where,
      "jobId",
      "a non-empty string without a colon that is not only digits",
      given.jobId,
    );
  }
  return {
    queue: entry.queue,
    attempts: attempts === undefined ? DEFAULT_ATTEMPTS : checkAttempts(where, attempts),
    backoff: backoff === undefined ? { type: "exponential", delay: DEFAULT_BACKOFF_MS } : backoffOf(where, backoff),
    delay: given.delay === undefined ? 0 : toMs(given.delay, where, "delay"),
    priority: priority === undefined ? undefined : checkPriority(where, priority),
    jobId: given.jobId,
  };
}

/** The wait before attempt `attempt + 1` after attempt `attempt` failed (attempt from 1), as BullMQ computes it. */
export function backoffDelay(backoff: ResolvedOptions["backoff"], attempt: number): number {
  return backoff.type === "fixed" ? backoff.delay : Math.round(2 ** (attempt - 1) * backoff.delay);
}

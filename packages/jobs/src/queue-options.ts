/**
 * The options of {@link createJobQueue}, and the one table of the queue's tuning keys
 * ({@link QUEUE_KEYS}): the jobs battery's `jobs` config block takes the same keys (plugin/config-schema.ts),
 * so each is written, typed, defaulted and documented once.
 */
import { defineConfigSchema, type InputOfShape, key } from "@fwkit/koa-host/config-schema";
import { checkOptionKeys } from "routing-kernel";
import type { Duration } from "./duration.js";
import { E_JOB_OPTION_INVALID } from "./errors.js";
import type { JobClass } from "./job.js";

/** A duration key, read in milliseconds. */
export function durationKey(doc: string, fallback: Duration) {
  return key.duration({ doc, default: fallback });
}

/** The queue's tuning keys: options of {@link createJobQueue} and keys of the `jobs` config block. */
export const QUEUE_KEYS = Object.freeze({
  prefix: key.string({
    doc: 'Prefix of the queue\'s Redis keys (`createJobQueue`: `"fwkit"`; the battery: `"fwkit-<name>"`, the app\'s package.json name; a `?prefix=` in the URL wins).',
    pattern: /^[A-Za-z0-9_.-]{1,50}$/,
    expected: "1-50 letters, digits or _ . -",
  }),
  dispatchTimeout: durationKey("How long a dispatch waits for Redis before `E_QUEUE_UNAVAILABLE`.", "2s"),
  lockDuration: durationKey(
    "How long a worker's hold on a running job lasts unless renewed (BullMQ `lockDuration`).",
    "30s",
  ),
  stalledInterval: durationKey("How often workers look for jobs whose worker died (BullMQ `stalledInterval`).", "30s"),
  maxStalledCount: key.int({ doc: "Times a job may be found stalled before it is failed.", default: 1, min: 0 }),
  unknownJobWait: durationKey(
    "How long a worker leaves a job whose name it does not know for one that knows it (a rolling deploy) before `E_JOB_UNKNOWN`.",
    "15m",
  ),
  keepCompleted: key.int({
    doc: "Completed jobs each queue keeps; a jobId is refused again while its job is kept.",
    default: 1000,
    min: 0,
  }),
  keepFailed: key.int({ doc: "Failed jobs each queue keeps.", default: 10_000, min: 0 }),
});

const queueSchema = defineConfigSchema(QUEUE_KEYS, {
  invalid: (path, expected, value) => new E_JOB_OPTION_INVALID("createJobQueue()", path, expected, value),
});

/** What {@link createJobQueue} takes: the queue's keys ({@link QUEUE_KEYS}) and what a queue is made of. */
export interface JobQueueOptions extends InputOfShape<typeof QUEUE_KEYS> {
  /** `QUEUE_URL`: `redis://host:6379/0` (BullMQ), `memory:` (the default) or `sync:`. */
  readonly url?: string;
  /** The job classes (what `loadJobModules()` found in `jobs/`); more can be added with register(). */
  readonly jobs?: readonly JobClass[];
  /** Handed to every job as `context.locals` (services, a database handle). */
  readonly locals?: Record<string, unknown>;
  /** Make this queue the one `Job.dispatch()` uses in the process (default true). */
  readonly bind?: boolean;
  /**
   * The app's secret key, then older ones still accepted: the first seals the payloads of sealed
   * jobs, each opens them. Needed for sealed jobs on Redis (the jobs battery passes `secretKey`
   * and `secretKeyFallbacks`); the in-process queues use a key of their own without it.
   */
  readonly secretKeys?: readonly string[];
}

/** The option names {@link JobQueueOptions} takes. */
export const JOB_QUEUE_OPTION_KEYS: readonly string[] = Object.freeze([
  "url",
  "jobs",
  ...Object.keys(QUEUE_KEYS),
  "locals",
  "bind",
  "secretKeys",
]);

/** The settings a driver is built with, every duration in milliseconds. */
export interface QueueSettings {
  readonly prefix: string;
  readonly dispatchTimeoutMs: number;
  readonly lockDurationMs: number;
  readonly stalledIntervalMs: number;
  readonly maxStalledCount: number;
  readonly unknownJobWaitMs: number;
  readonly keepCompleted: number;
  readonly keepFailed: number;
}

/** A whole number of at least `min`, or `fallback` when not given. */
export function count(where: string, option: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min)
    throw new E_JOB_OPTION_INVALID(where, option, `a whole number of at least ${min}`, value);
  return value;
}

/** Checks {@link JobQueueOptions} (unknown keys name the known ones) and puts in the defaults. */
export function resolveQueueSettings(options: JobQueueOptions, urlPrefix: string | undefined): QueueSettings {
  checkOptionKeys("createJobQueue() options", options, JOB_QUEUE_OPTION_KEYS);
  const read = queueSchema.resolve(
    { ...options, ...(urlPrefix !== undefined ? { prefix: urlPrefix } : {}) },
    { env: {} },
  );
  return {
    prefix: read.prefix ?? "fwkit",
    dispatchTimeoutMs: read.dispatchTimeout,
    lockDurationMs: read.lockDuration,
    stalledIntervalMs: read.stalledInterval,
    maxStalledCount: read.maxStalledCount,
    unknownJobWaitMs: read.unknownJobWait,
    keepCompleted: read.keepCompleted,
    keepFailed: read.keepFailed,
  };
}

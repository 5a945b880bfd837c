/**
 * The options of {@link createJobQueue}: checked at start-up (an unknown key names the known ones),
 * with their defaults, every duration in milliseconds for the drivers.
 */
import { checkOptionKeys } from "routing-kernel";
import { type Duration, toMs } from "./duration.js";
import { E_JOB_OPTION_INVALID } from "./errors.js";
import type { JobClass } from "./job.js";

/** What {@link createJobQueue} takes. */
export interface JobQueueOptions {
  /** `QUEUE_URL`: `redis://host:6379/0` (BullMQ), `memory:` (the default) or `sync:`. */
  readonly url?: string;
  /** The job classes (what `loadJobModules()` found in `jobs/`); more can be added with register(). */
  readonly jobs?: readonly JobClass[];
  /**
   * The prefix of the queue's Redis keys (default `"fwkit"`; a `?prefix=` in the URL wins). The
   * jobs battery's default is `"fwkit-<app name>"`, from the app's package.json, so two apps on one
   * Redis database never take each other's jobs.
   */
  readonly prefix?: string;
  /** How long a dispatch waits for Redis before `E_QUEUE_UNAVAILABLE` (default `"2s"`). */
  readonly dispatchTimeout?: Duration;
  /** How long a worker's hold on a running job lasts unless renewed (BullMQ `lockDuration`, default `"30s"`). */
  readonly lockDuration?: Duration;
  /** How often workers look for jobs whose worker died (BullMQ `stalledInterval`, default `"30s"`). */
  readonly stalledInterval?: Duration;
  /** How many times a job may be found stalled before it is failed (BullMQ `maxStalledCount`, default 1). */
  readonly maxStalledCount?: number;
  /**
   * How long a worker leaves a job whose name it does not know for a worker that knows it (a newer
   * version during a rolling deploy) before failing it with `E_JOB_UNKNOWN` (default `"15m"`).
   */
  readonly unknownJobWait?: Duration;
  /** How many completed jobs each queue keeps (default 1000); a jobId is refused again while its job is kept. */
  readonly keepCompleted?: number;
  /** How many failed jobs each queue keeps (default 10000). */
  readonly keepFailed?: number;
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
export const JOB_QUEUE_OPTION_KEYS = [
  "url",
  "jobs",
  "prefix",
  "dispatchTimeout",
  "lockDuration",
  "stalledInterval",
  "maxStalledCount",
  "unknownJobWait",
  "keepCompleted",
  "keepFailed",
  "locals",
  "bind",
  "secretKeys",
] as const;

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
  const where = "createJobQueue()";
  checkOptionKeys(`${where} options`, options, JOB_QUEUE_OPTION_KEYS);
  const prefix = urlPrefix ?? options.prefix ?? "fwkit";
  if (typeof prefix !== "string" || !/^[A-Za-z0-9_.-]{1,50}$/.test(prefix))
    throw new E_JOB_OPTION_INVALID(where, "prefix", "1-50 letters, digits or _ . -", prefix);
  return {
    prefix,
    dispatchTimeoutMs: toMs(options.dispatchTimeout ?? "2s", where, "dispatchTimeout"),
    lockDurationMs: toMs(options.lockDuration ?? "30s", where, "lockDuration"),
    stalledIntervalMs: toMs(options.stalledInterval ?? "30s", where, "stalledInterval"),
    maxStalledCount: count(where, "maxStalledCount", options.maxStalledCount, 1, 0),
    unknownJobWaitMs: toMs(options.unknownJobWait ?? "15m", where, "unknownJobWait"),
    keepCompleted: count(where, "keepCompleted", options.keepCompleted, 1000, 0),
    keepFailed: count(where, "keepFailed", options.keepFailed, 10_000, 0),
  };
}

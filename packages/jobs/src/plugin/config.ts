/**
 * The jobs battery's config: `queueUrl` (`QUEUE_URL`, a host key) and the `jobs` block, read and
 * checked once at start-up so a wrong value stops the app naming the key.
 */
import type { Context } from "koa";
import { checkOptionKeys } from "routing-kernel";
import { isPlainObject } from "routing-kernel/plugin";
import { type Duration, toMs } from "../duration.js";
import { E_JOB_OPTION_INVALID } from "../errors.js";
import { parseQueueUrl } from "../url.js";

/** The jobs dashboard's block (`jobs.dashboard`). */
export interface JobsDashboardConfig {
  /** Where it is served (default `"/jobs"`). */
  readonly path?: string;
  /** Serve it in production too (default false); production also needs `guard`. */
  readonly production?: boolean;
  /** Who may see it (in production, only admins): true lets the request through, false answers 403. */
  readonly guard?: (ctx: Context) => boolean | Promise<boolean>;
  /** Hide the buttons that retry, remove or promote jobs. */
  readonly readOnly?: boolean;
  /** Allow adding jobs and editing job data from the dashboard (default: in development only). */
  readonly edit?: boolean;
  /** The dashboard's title. */
  readonly title?: string;
}

/** The `jobs` block of an app's config. */
export interface JobsConfigBlock {
  /** The folder the job modules are found in, under the app folder (default `"jobs"`). */
  readonly folder?: string;
  /**
   * Jobs a web process runs at once besides serving requests (`start --job-workers N`, or the
   * `JOB_WORKERS` environment variable): 0 (the default with a Redis queue) leaves jobs to
   * `jobs:work` processes. The in-process queues (`memory:`, `sync:`) always run their jobs here.
   */
  readonly workers?: number;
  /** How long a running job may go on at shutdown before it is left to be retried (default `"30s"`). */
  readonly grace?: Duration;
  /**
   * The prefix of the queue's Redis keys (default `"fwkit-<name>"`, the app's package.json name:
   * apps sharing a Redis database keep their jobs apart). `"fwkit"` is the prefix of versions before.
   */
  readonly prefix?: string;
  /** How long a dispatch waits for Redis before answering 503 (default `"2s"`). */
  readonly dispatchTimeout?: Duration;
  /** How long a worker's hold on a running job lasts unless renewed (default `"30s"`). */
  readonly lockDuration?: Duration;
  /** How often workers look for jobs whose worker died (default `"30s"`). */
  readonly stalledInterval?: Duration;
  /** How many times a job may be found stalled before it is failed (default 1). */
  readonly maxStalledCount?: number;
  /** How long a worker leaves a job it does not know for one that knows it before failing it (default `"15m"`). */
  readonly unknownJobWait?: Duration;
  /** How many completed jobs each queue keeps (default 1000). */
  readonly keepCompleted?: number;
  /** How many failed jobs each queue keeps (default 10000). */
  readonly keepFailed?: number;
  /**
   * Record dispatches instead of queuing them, for the test client (`client.jobs`): true by
   * default in the `test` environment.
   */
  readonly fake?: boolean;
  /** The dashboard (bull-board, on a Redis queue): `false` turns it off in development too. */
  readonly dashboard?: false | JobsDashboardConfig;
}

/** The config keys the jobs battery reads, for the host's start-up check of unknown keys. */
export const JOBS_CONFIG_KEYS = Object.freeze({
  queueUrl: true,
  // `dashboard` is a block of its own, checked by readJobsConfig (its guard is a function).
  jobs: Object.freeze({
    folder: true,
    workers: true,
    grace: true,
    prefix: true,
    dispatchTimeout: true,
    lockDuration: true,
    stalledInterval: true,
    maxStalledCount: true,
    unknownJobWait: true,
    keepCompleted: true,
    keepFailed: true,
    fake: true,
    dashboard: true,
  }),
} as const);

const DASHBOARD_KEYS = ["path", "production", "guard", "readOnly", "edit", "title"] as const;

/** The jobs battery's settings, checked. */
export interface JobsSettings {
  /** The queue URL, or undefined when none is set (production without QUEUE_URL: jobs run inline). */
  readonly url: string | undefined;
  readonly folder: string;
  readonly workers: number;
  readonly graceMs: number;
  readonly fake: boolean;
  /** The queue options handed to createJobQueue (only those the app set). */
  readonly queue: Readonly<Record<string, unknown>>;
  /** The dashboard to mount, or undefined. */
  readonly dashboard: JobsDashboardConfig | undefined;
}

const where = "config";

function whole(value: unknown, option: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  // JOB_WORKERS arrives as a string from the environment.
  const number = typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof number !== "number" || !Number.isInteger(number) || number < min)
    throw new E_JOB_OPTION_INVALID(where, option, `a whole number of at least ${min}`, value);
  return number;
}

function dashboardOf(value: unknown, env: string): JobsDashboardConfig | undefined {
  if (value === false) return undefined;
  if (value !== undefined && !isPlainObject(value))
    throw new E_JOB_OPTION_INVALID(
      where,
      "jobs.dashboard",
      "false or a block { path, production, guard, readOnly, edit, title }",
      value,
    );
  const block = (value ?? {}) as JobsDashboardConfig;
  checkOptionKeys("config jobs.dashboard", block, DASHBOARD_KEYS);
  if (block.guard !== undefined && typeof block.guard !== "function")
    throw new E_JOB_OPTION_INVALID(where, "jobs.dashboard.guard", "a function (ctx) => boolean", block.guard);
  if (block.production !== undefined && typeof block.production !== "boolean")
    throw new E_JOB_OPTION_INVALID(where, "jobs.dashboard.production", "true or false", block.production);
  if (block.edit !== undefined && typeof block.edit !== "boolean")
    throw new E_JOB_OPTION_INVALID(where, "jobs.dashboard.edit", "true or false", block.edit);
  if (env !== "production") return env === "development" ? block : undefined;
  if (!block.production) return undefined;
  // Retrying and removing jobs is an admin's power: production never serves it to everyone.
  if (!block.guard)
    throw new E_JOB_OPTION_INVALID(
      where,
      "jobs.dashboard.guard",
      "a function (ctx) => boolean that lets only admins in, since jobs.dashboard.production is true",
      undefined,
    );
  return block;
}

/**
 * Reads and checks `queueUrl` and the `jobs` block (`JOB_WORKERS` from `environment` when
 * `jobs.workers` is not set); a wrong value is `E_QUEUE_URL_INVALID` or `E_JOB_OPTION_INVALID`
 * naming the key.
 */
export function readJobsConfig(appConfig: object, environment: NodeJS.ProcessEnv = process.env): JobsSettings {
  const config = appConfig as Readonly<Record<string, unknown>>;
  const env = typeof config["env"] === "string" ? config["env"] : "development";
  const url = config["queueUrl"];
  if (url !== undefined && url !== "" && typeof url !== "string")
    throw new E_JOB_OPTION_INVALID(where, "queueUrl", "a URL such as redis://127.0.0.1:6379/3, memory: or sync:", url);
  if (typeof url === "string" && url !== "") parseQueueUrl(url);
  const block = config["jobs"] ?? {};
  if (!isPlainObject(block)) throw new E_JOB_OPTION_INVALID(where, "jobs", "a block of the jobs battery's keys", block);
  const jobs = block as JobsConfigBlock;
  const folder = jobs.folder ?? "jobs";
  if (typeof folder !== "string" || folder === "" || folder.includes(".."))
    throw new E_JOB_OPTION_INVALID(where, "jobs.folder", "a folder under the app folder", folder);
  if (jobs.fake !== undefined && typeof jobs.fake !== "boolean")
    throw new E_JOB_OPTION_INVALID(where, "jobs.fake", "true or false", jobs.fake);
  const queue: Record<string, unknown> = {};
  for (const key of ["prefix", "dispatchTimeout", "lockDuration", "stalledInterval", "unknownJobWait"] as const)
    if (jobs[key] !== undefined) queue[key] = jobs[key];
  for (const key of ["maxStalledCount", "keepCompleted", "keepFailed"] as const)
    if (jobs[key] !== undefined) queue[key] = whole(jobs[key], `jobs.${key}`, 0);
  const envWorkers = environment["JOB_WORKERS"];
  return {
    url: typeof url === "string" && url !== "" ? url : undefined,
    folder,
    workers:
      whole(jobs.workers, "jobs.workers", 0) ??
      whole(envWorkers === "" ? undefined : envWorkers, "JOB_WORKERS (start --job-workers)", 0) ??
      0,
    graceMs: toMs(jobs.grace ?? "30s", where, "jobs.grace"),
    fake: jobs.fake ?? env === "test",
    queue,
    dashboard: dashboardOf(jobs.dashboard, env),
  };
}

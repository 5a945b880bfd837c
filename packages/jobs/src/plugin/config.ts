/**
 * The jobs battery's config: `queueUrl` (`QUEUE_URL`, a host key) and the `jobs` block, read and
 * checked once at start-up so a wrong value stops the app naming the key.
 */
import type { ResolvedOf } from "@fwkit/koa-host/config-schema";
import { checkOptionKeys } from "routing-kernel";
import { E_JOB_OPTION_INVALID } from "../errors.js";
import { parseQueueUrl } from "../url.js";
import { type JobsDashboardConfig, jobsConfigSchema } from "./config-schema.js";

export {
  type JobsAppConfig,
  type JobsConfigBlock,
  type JobsDashboardConfig,
  jobsConfigSchema,
} from "./config-schema.js";

/** The config keys the jobs battery reads, for the host's start-up check of unknown keys. */
export const JOBS_CONFIG_KEYS = jobsConfigSchema.configKeys;

const DASHBOARD_KEYS = ["path", "production", "guard", "readOnly", "edit", "title"] as const;

/** The jobs battery's settings, checked (the types of the block's keys are the schema's). */
export interface JobsSettings extends Pick<ResolvedOf<typeof jobsConfigSchema>["jobs"], "folder" | "workers" | "fake"> {
  /** The queue URL, or undefined when none is set (production without QUEUE_URL: jobs run inline). */
  readonly url: string | undefined;
  /** `jobs.grace`, in milliseconds. */
  readonly graceMs: ResolvedOf<typeof jobsConfigSchema>["jobs"]["grace"];
  /** The queue's keys handed to createJobQueue, read with their defaults (durations in milliseconds). */
  readonly queue: Readonly<Record<string, unknown>>;
  /** The dashboard to mount, or undefined. */
  readonly dashboard: JobsDashboardConfig | undefined;
}

const where = "config";

function dashboardOf(value: false | JobsDashboardConfig | undefined, env: string): JobsDashboardConfig | undefined {
  if (value === false) return undefined;
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
  const { folder, workers, grace, fake, dashboard, ...queue } = jobsConfigSchema.resolveKey("jobs", config, {
    env: environment,
  });
  return {
    url: typeof url === "string" && url !== "" ? url : undefined,
    folder,
    workers,
    graceMs: grace,
    fake,
    queue,
    dashboard: dashboardOf(dashboard, env),
  };
}

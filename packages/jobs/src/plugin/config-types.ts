/**
 * The jobs battery's keys in an app's config, added to `AppConfig` of `@fwkit/koa-host` by module
 * augmentation, so `defineConfig({ jobs: {...} })` is checked at compile time. `queueUrl`
 * (`QUEUE_URL`) is the host's key, typed there; `JOBS_CONFIG_KEYS` declares the same keys for the
 * start-up check, and the compile-time check below keeps the two lists equal.
 */
// The module augmented below must be part of the program.
import type {} from "@fwkit/koa-host";
import type { ConfigKeysAgree } from "@fwkit/koa-host/plugin";
import type { JOBS_CONFIG_KEYS, JobsConfigBlock } from "./config.js";

/** The config keys the jobs battery reads, as an app writes them (see docs/jobs.md). */
export interface JobsAppConfig {
  /** Workers, shutdown grace, Redis key prefix, stalled-job checks, the test fake and the dashboard. */
  readonly jobs?: JobsConfigBlock;
}

// Compile-time: the start-up check's declaration lists exactly these keys.
const jobsKeysAgree: ConfigKeysAgree<typeof JOBS_CONFIG_KEYS, JobsAppConfig> = true;
void jobsKeysAgree;

declare module "@fwkit/koa-host" {
  // eslint-disable-next-line @typescript-eslint/no-empty-interface -- the merge is the point
  interface AppConfig extends JobsAppConfig {}
}

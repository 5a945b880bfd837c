/**
 * @module @fwkit/jobs
 * Background jobs and schedules: job classes with a Standard Schema payload, dispatched to BullMQ
 * on Redis (`QUEUE_URL=redis://...`), to an in-process queue (`memory:`, the development default)
 * or run inline (`sync:`); workers with graceful shutdown, retries with backoff, failed-job
 * management, cron and interval schedules, events for metrics. The test fake is in
 * `@fwkit/jobs/testing`, the dashboard in `@fwkit/jobs/dashboard`.
 */
export { defineJob, type DefinedJob, type JobDefinition } from "./define-job.js";
export { isJobClass, listJobModules, loadJobModules } from "./discovery.js";
export type {
  DriverWorker,
  FailedJob,
  QueueCounts,
  QueueDriver,
  QueueKind,
  QueuedJob,
  RunnableJob,
  ScheduleEntry,
  WorkOptions,
} from "./drivers/types.js";
export { toMs, type Duration } from "./duration.js";
export {
  E_JOB_DEFINITION_INVALID,
  E_JOB_CRON_PARSER_MISSING,
  E_JOB_GAVE_UP,
  E_JOB_MODULE_FAILED,
  E_JOB_NAME_TAKEN,
  E_JOB_NO_QUEUE,
  E_JOB_NOT_FOUND,
  E_JOB_OPTION_INVALID,
  E_JOB_PAYLOAD_INVALID,
  E_JOB_SCHEDULE_INVALID,
  E_JOB_TIMEOUT,
  E_JOB_UNKNOWN,
  E_JOBS_DASHBOARD_UNSUPPORTED,
  E_JOBS_DRIVER_MISSING,
  E_QUEUE_CLOSED,
  E_QUEUE_UNAVAILABLE,
  E_QUEUE_URL_INVALID,
  failJob,
  isUnrecoverable,
} from "./errors.js";
export { JobEvents, type JobEventListener, type JobEventMap, type JobEventName } from "./events.js";
export {
  currentDispatcher,
  DISPATCH_OPTION_KEYS,
  Job,
  JOB_SETTING_KEYS,
  jobNameOf,
  useDispatcher,
  type BackoffOptions,
  type DispatchedJob,
  type Dispatcher,
  type DispatchOptions,
  type InputOf,
  type JobClass,
  type JobClassOf,
  type JobContext,
  type JobSchedule,
  type JobSettings,
} from "./job.js";
export { createJobQueue, JobQueue, type QueueSelection } from "./queue.js";
export { JOB_QUEUE_OPTION_KEYS, type JobQueueOptions, type QueueSettings } from "./queue-options.js";
export { parseSchedule, schedule, type ParsedSchedule, type ScheduledRun } from "./schedule.js";
export { checkPayload, isStandardSchema } from "./schema.js";
export {
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_MS,
  DEFAULT_QUEUE,
  type JobEntry,
  type ResolvedOptions,
} from "./settings.js";
export { parseQueueUrl, type QueueLocation, type RedisLocation } from "./url.js";
export {
  runWorker,
  RUN_WORKER_OPTION_KEYS,
  type RunningWorker,
  type RunWorkerOptions,
  type WorkerStopped,
} from "./worker.js";
export {
  JOBS_CONFIG_KEYS,
  jobsConfigSchema,
  readJobsConfig,
  type JobsAppConfig,
  type JobsConfigBlock,
  type JobsDashboardConfig,
  type JobsSettings,
} from "./plugin/config.js";
export { JOBS_PLUGIN_NAME, jobsOf, jobsPlugin, type JobsPlugin, type JobsPluginOptions } from "./plugin/plugin.js";

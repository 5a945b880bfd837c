/**
 * The jobs battery as a host plugin: at start-up it finds the app's jobs (`jobs/`), makes the
 * app's queue from `QUEUE_URL` (or the test fake), makes it what `Job.dispatch()` uses, runs the
 * in-process worker where one belongs, and serves the dashboard where the config allows it.
 */
import type { Middleware } from "koa";
import type { Host } from "@fwkit/koa-host";
import { loopbackOnly, runtimeOf, type HostPlugin, type PluginContext } from "@fwkit/koa-host/plugin";
import { report, telemetry } from "@fwkit/battery-kit";
import { loadJobModules } from "../discovery.js";
import type { DriverWorker, QueueKind } from "../drivers/types.js";
import { currentDispatcher, type DispatchedJob, type Dispatcher, type DispatchOptions, type JobClass } from "../job.js";
import { createJobQueue, type JobQueue } from "../queue.js";
import type { FakeQueue } from "../testing.js";
import { logJobFailures } from "./failure-log.js";
import { appQueuePrefix } from "./app-prefix.js";
import { logUnknownJobs } from "./unknown-job-log.js";
import { JOBS_CONFIG_KEYS, readJobsConfig, type JobsSettings } from "./config.js";

/** What {@link jobsPlugin} takes (the framework's part; the app's is its config). */
export interface JobsPluginOptions {
  /** Job classes of the kit itself (the mail and signal jobs), registered beside the app's. */
  readonly jobs?: readonly JobClass[];
  /** What every job gets as `context.locals`, asked once at start-up (after the plugins before this one are set up). */
  readonly locals?: () => Record<string, unknown>;
  /** Called once the queue (or the fake) is made, with what dispatches to it; and with undefined at close. */
  readonly onDispatcher?: (dispatcher: Dispatcher | undefined) => void;
}

/** The jobs battery's plugin; its queue exists after `setup`. */
export interface JobsPlugin extends HostPlugin {
  /** The app's queue, or undefined under the test fake (and before setup). */
  readonly queue: JobQueue | undefined;
  /** The test fake (`client.jobs`), or undefined when a real queue runs. */
  readonly fake: FakeQueue | undefined;
  /** `"bullmq"`, `"memory"`, `"sync"` or `"fake"`. */
  readonly kind: QueueKind | "fake" | undefined;
  /** Dispatches a job to this app's queue. */
  dispatch(job: JobClass, payload: unknown, options?: DispatchOptions): Promise<DispatchedJob>;
}

/** The plugin's name among the host's plugins. */
export const JOBS_PLUGIN_NAME = "jobs";

/** The jobs plugin of a built app (its queue: `jobsOf(host).queue`), or undefined when the battery is off. */
export function jobsOf(host: Host): JobsPlugin | undefined {
  return runtimeOf(host.koa.context).plugins.find((plugin) => plugin.name === JOBS_PLUGIN_NAME) as
    | JobsPlugin
    | undefined;
}

// How often the queues' depths are read for metrics (only while an observer listens).
const COUNT_EVERY_MS = 10_000;

/**
 * Reads the queues' job counts every few seconds while someone observes the host's telemetry (the
 * observability battery's queue gauges); a failed read (Redis down) is left to the queue's own
 * error reporting.
 */
function countForMetrics(queue: JobQueue): NodeJS.Timeout {
  const timer = setInterval(() => {
    if (!telemetry.queue.hasSubscribers) return;
    queue.depth().then(
      (byQueue) => {
        for (const [name, counts] of Object.entries(byQueue))
          report(telemetry.queue, () => ({ queue: name, ...counts }));
      },
      () => undefined,
    );
  }, COUNT_EVERY_MS);
  timer.unref();
  return timer;
}

/** Makes the queue or the fake the settings ask for. */
async function makeQueue(
  settings: JobsSettings,
  jobs: readonly JobClass[],
  locals: Record<string, unknown>,
  secretKeys: readonly string[],
  root: string,
): Promise<{ queue?: JobQueue; fake?: FakeQueue }> {
  // The test fake and the dashboard load only for an app whose config asks for them.
  if (settings.fake) return { fake: (await import("../testing.js")).createFakeQueue({ locals }) };
  // The app's own Redis keys by default (a ?prefix= in QUEUE_URL still wins): apps sharing a Redis
  // database do not take each other's jobs.
  const prefix = settings.queue["prefix"] ?? appQueuePrefix(root);
  return {
    queue: await createJobQueue({
      url: settings.url ?? "memory:",
      jobs,
      locals,
      secretKeys,
      ...settings.queue,
      prefix: prefix as string,
    }),
  };
}

/** The app's secret key and the older ones still accepted: they seal and open sealed jobs' payloads. */
function secretKeysOf(config: PluginContext["config"]): string[] {
  const fallbacks = (config as { secretKeyFallbacks?: unknown }).secretKeyFallbacks;
  return [config.secretKey, ...(Array.isArray(fallbacks) ? fallbacks : [])].filter(
    (key): key is string => typeof key === "string" && key !== "",
  );
}

/** See the module comment. Config: `queueUrl` (`QUEUE_URL`) and the `jobs` block (docs/jobs.md). */
export function jobsPlugin(options: JobsPluginOptions = {}): JobsPlugin {
  let settings: JobsSettings | undefined;
  let queue: JobQueue | undefined;
  let fake: FakeQueue | undefined;
  let worker: DriverWorker | undefined;
  let dashboard: Middleware | undefined;
  let counting: NodeJS.Timeout | undefined;
  let devTools: string[] = [];
  let stopFailureLog: (() => void) | undefined;
  let stopUnknownLog: (() => void) | undefined;
  // Before setup (or after close) a dispatch has nowhere to go: E_JOB_NO_QUEUE names the job.
  const dispatcher = (job?: JobClass): Dispatcher => fake ?? queue ?? currentDispatcher(job ?? { name: "(a job)" });

  const setup = async ({ config, logger }: PluginContext): Promise<void> => {
    settings = readJobsConfig(config);
    const appJobs = await loadJobModules(config.root, settings.folder);
    const jobs = [...(options.jobs ?? []), ...appJobs];
    ({ queue, fake } = await makeQueue(settings, jobs, options.locals?.() ?? {}, secretKeysOf(config), config.root));
    options.onDispatcher?.(dispatcher());
    if (!queue) return;
    // Every failed attempt a worker of this process runs is logged and counted.
    stopFailureLog = logJobFailures(queue, logger);
    stopUnknownLog = logUnknownJobs(queue, logger);
    const kind = queue.kind;
    if (settings.url === undefined && config.env === "production" && appJobs.length > 0) {
      logger.warn(
        { jobs: appJobs.length },
        "QUEUE_URL is not set: jobs run in each web process and a job not run yet is lost when it stops; set QUEUE_URL=redis://... and run jobs:work processes",
      );
    }
    // The in-process queues have no other process to work them; a Redis queue is worked here only when asked (start --job-workers).
    const inProcess = kind !== "bullmq" ? Math.max(settings.workers, 1) : settings.workers;
    if (inProcess > 0) {
      await queue.syncSchedules();
      worker = await queue.work({ concurrency: inProcess });
      if (kind === "bullmq")
        logger.info({ concurrency: inProcess, queues: queue.queueNames() }, "this process also works jobs");
    }
    if (settings.dashboard) dashboard = await mountDashboard(queue, settings.dashboard, config, logger);
    if (dashboard && config.env !== "production")
      devTools = [`${settings.dashboard?.path ?? "/jobs"} (jobs dashboard)`];
    counting = countForMetrics(queue);
  };

  return {
    name: JOBS_PLUGIN_NAME,
    configKeys: JOBS_CONFIG_KEYS,
    get queue() {
      return queue;
    },
    get fake() {
      return fake;
    },
    get kind() {
      return fake ? "fake" : queue?.kind;
    },
    dispatch: (job, payload, dispatchOptions) => dispatcher(job).dispatch(job, payload, dispatchOptions),
    setup,
    phases: { request: () => (dashboard ? [dashboard] : []) },
    devTools: () => devTools,
    async close() {
      clearInterval(counting);
      options.onDispatcher?.(undefined);
      await worker?.close(settings?.graceMs ?? 30_000);
      worker = undefined;
      await queue?.close();
      stopFailureLog?.();
      stopUnknownLog?.();
      fake?.restore();
    },
  };
}

/**
 * The dashboard where the config asks for it. In development a queue that is not on Redis, or
 * bull-board not installed, only says so: `npm run dev` never fails over a tool; in production
 * (turned on and guarded) either is a start-up error.
 */
async function mountDashboard(
  queue: JobQueue,
  block: NonNullable<JobsSettings["dashboard"]>,
  config: PluginContext["config"],
  logger: PluginContext["logger"],
): Promise<Middleware | undefined> {
  const { jobsDashboard } = await import("../dashboard.js");
  const env = config.env;
  const dashboardOptions = {
    path: block.path ?? "/jobs",
    ...(block.guard ? { guard: block.guard } : {}),
    ...(block.readOnly !== undefined ? { readOnly: block.readOnly } : {}),
    // Writing job data is a development convenience; production turns it on only when told.
    edit: block.edit ?? env !== "production",
    ...(block.title ? { title: block.title } : {}),
  };
  if (env === "production") return jobsDashboard(queue, dashboardOptions);
  if (queue.kind !== "bullmq") return undefined;
  try {
    // Unguarded in development, it shows job data: this machine only (devTools.remote opens it).
    const middleware = loopbackOnly(dashboardOptions.path, config, jobsDashboard(queue, dashboardOptions));
    logger.info({ path: dashboardOptions.path }, `the jobs dashboard is served at ${dashboardOptions.path}`);
    return middleware;
  } catch (error) {
    logger.warn(
      { code: (error as { code?: string }).code },
      `the jobs dashboard is not served: ${(error as Error).message}`,
    );
    return undefined;
  }
}

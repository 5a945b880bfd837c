/**
 * The job queue of an app: the registered jobs, dispatch (checked, then handed to the driver),
 * the runner every driver's worker calls, failed-job and schedule management, and events.
 */
import { telemetry, traceCall, type JobDispatchMessage, type JobMessage } from "@fwkit/battery-kit";
import { checkOptionKeys } from "routing-kernel";
import type {
  DriverWorker,
  FailedJob,
  JobTrace,
  QueueCounts,
  QueueDriver,
  QueueKind,
  RunnableJob,
  ScheduleEntry,
} from "./drivers/types.js";
import { randomBytes } from "node:crypto";
import {
  E_JOB_DEFINITION_INVALID,
  E_JOB_NAME_TAKEN,
  E_JOB_NOT_FOUND,
  E_JOB_OPTION_INVALID,
  E_JOB_PAYLOAD_INVALID,
  E_JOB_UNKNOWN,
  E_QUEUE_CLOSED,
  isUnrecoverable,
} from "./errors.js";
import { JobEvents } from "./events.js";
import {
  type Dispatcher,
  type DispatchedJob,
  type DispatchOptions,
  type JobClass,
  jobNameOf,
  useDispatcher,
} from "./job.js";
import { runAttempt } from "./attempt.js";
import { reportJobFailure } from "./failure-report.js";
import { createDriver } from "./drivers/create.js";
import type { ScheduledRun } from "./schedule.js";
import { checkQueuedPayload, preparePayload } from "./schema.js";
import { type PayloadSealer, payloadSealer } from "./seal.js";
import { checkJob, DEFAULT_QUEUE, type JobEntry, resolveOptions } from "./settings.js";
import { count, JOB_QUEUE_OPTION_KEYS, type JobQueueOptions, resolveQueueSettings } from "./queue-options.js";
import { parseQueueUrl } from "./url.js";
import { servicesOf } from "./job-services.js";

/**
 * Asks the host's telemetry for the dispatcher's trace context (an observer fills the carrier); no
 * observer, or an empty carrier, is no trace: nothing is stored with the job.
 */
function dispatchTrace(queue: string, name: string): JobTrace | undefined {
  if (!telemetry.jobDispatch.hasSubscribers) return undefined;
  const message: JobDispatchMessage = { queue, name, carrier: {} };
  telemetry.jobDispatch.publish(message);
  return Object.keys(message.carrier).length > 0 ? { ...message.carrier } : undefined;
}

/** Which queues a call is about (default: every queue a registered job uses). */
export interface QueueSelection {
  readonly queues?: readonly string[];
}

/** An app's job queue; made by {@link createJobQueue}. */
export class JobQueue implements Dispatcher {
  /** Completed, failed, active and dispatched jobs of this process, for metrics. */
  readonly events = new JobEvents();
  readonly #entries = new Map<string, JobEntry>();
  readonly #locals: Readonly<Record<string, unknown>>;
  readonly #secretKeys: readonly string[];
  #sealer: PayloadSealer | undefined;
  #unbind: () => void = () => {};
  #driver!: QueueDriver;
  #closed = false;

  /** @internal Use {@link createJobQueue}. */
  constructor(options: JobQueueOptions) {
    this.#locals = Object.freeze({ ...options.locals });
    const keys = options.secretKeys ?? [];
    if (!Array.isArray(keys) || keys.some((key) => typeof key !== "string" || key === ""))
      throw new E_JOB_OPTION_INVALID("createJobQueue()", "secretKeys", "a list of non-empty strings", keys);
    this.#secretKeys = [...keys];
    for (const job of options.jobs ?? []) this.register(job);
  }

  /** @internal Set by {@link createJobQueue} once the driver is loaded; `bind` makes it the process's dispatcher. */
  attach(driver: QueueDriver, bind: boolean): void {
    this.#driver = driver;
    // The in-process queues never share their jobs with another process: a key of their own will do.
    if (this.#secretKeys.length > 0) this.#sealer = payloadSealer(this.#secretKeys);
    else if (driver.kind !== "bullmq") this.#sealer = payloadSealer([randomBytes(32).toString("base64url")]);
    if (bind) this.#unbind = useDispatcher(this);
  }

  /** The payload as the queue keeps it: JSON, encrypted for a sealed job. */
  #stored(entry: JobEntry, stored: unknown): unknown {
    if (!entry.sealed) return stored;
    if (!this.#sealer)
      throw new E_JOB_DEFINITION_INVALID(
        entry.name,
        "it is sealed, but the queue has no secret key to seal it with: pass createJobQueue({ secretKeys: [secretKey] }) (the jobs battery passes the app's)",
      );
    return this.#sealer.seal(entry.name, stored);
  }

  /** What a worker hands the job: the stored payload opened (sealed jobs) and checked by the schema again. */
  async #payloadOf(entry: JobEntry, stored: unknown): Promise<unknown> {
    if (!entry.sealed) return checkQueuedPayload(entry.job, stored);
    const opened = this.#sealer?.open(entry.name, stored);
    if (!opened)
      throw new E_JOB_PAYLOAD_INVALID(
        entry.name,
        "the job is sealed and its payload was not sealed by this app (or with none of its secret keys)",
        "queued",
      );
    return checkQueuedPayload(entry.job, opened.payload);
  }

  /** The backend: `"bullmq"`, `"memory"` or `"sync"`. */
  get kind(): QueueKind {
    return this.#driver.kind;
  }

  /** @internal The driver (the dashboard reads BullMQ's queues from it). */
  get driver(): QueueDriver {
    return this.#driver;
  }

  /** Adds job classes; a second job with a name already taken is `E_JOB_NAME_TAKEN`. Returns the queue. */
  register(...jobs: JobClass[]): this {
    for (const job of jobs) {
      const entry = checkJob(job);
      const taken = this.#entries.get(entry.name);
      if (taken && taken.job !== job) throw new E_JOB_NAME_TAKEN(entry.name, taken.job.name, job.name);
      this.#entries.set(entry.name, entry);
    }
    return this;
  }

  /** The registered jobs, by name. */
  jobs(): JobEntry[] {
    // Code-unit order: `localeCompare`'s first call loads the ICU collator, a cost at every start.
    return [...this.#entries.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** The registered job `name`, or `E_JOB_UNKNOWN` naming the known ones. */
  job(name: string): JobEntry {
    const entry = this.#entries.get(name);
    if (!entry) throw new E_JOB_UNKNOWN(name, [...this.#entries.keys()].sort());
    return entry;
  }

  /** The queue names the registered jobs use (at least `"default"`). */
  queueNames(): string[] {
    return [...new Set([DEFAULT_QUEUE, ...[...this.#entries.values()].map((entry) => entry.queue)])].sort();
  }

  #select(selection: QueueSelection | undefined): readonly string[] {
    return selection?.queues ?? this.queueNames();
  }

  #open(what: string): QueueDriver {
    if (this.#closed) throw new E_QUEUE_CLOSED(what);
    return this.#driver;
  }

  /**
   * Checks the payload against the job's schema (`E_JOB_PAYLOAD_INVALID`), the options, and queues
   * the job; Redis down is `E_QUEUE_UNAVAILABLE` (503) within `dispatchTimeout`. A job class not
   * registered yet is registered.
   */
  async dispatch(job: JobClass, payload: unknown, options?: DispatchOptions): Promise<DispatchedJob> {
    const driver = this.#open(`dispatching ${jobNameOf(job)}`);
    const name = jobNameOf(job);
    if (this.#entries.get(name)?.job !== job) this.register(job);
    const entry = this.#entries.get(name)!;
    const resolved = resolveOptions(entry, options);
    const stored = this.#stored(entry, (await preparePayload(job, payload)).stored);
    const trace = dispatchTrace(resolved.queue, name);
    const id = await driver.add({ name, payload: stored, options: resolved, ...(trace ? { trace } : {}) });
    this.events.emit("dispatched", { name, queue: entry.queue, id });
    return { id, name, queue: entry.queue };
  }

  /** Dispatches the registered job `name` (what the CLI does); an unknown name is `E_JOB_UNKNOWN`. */
  async dispatchByName(name: string, payload: unknown, options?: DispatchOptions): Promise<DispatchedJob> {
    return this.dispatch(this.job(name).job, payload, options);
  }

  /**
   * @internal Runs one job: what every driver's worker calls. Throws when the job fails. An
   * operation on the host's telemetry (a job span, the job metrics) when someone observes.
   */
  run(job: RunnableJob): Promise<unknown> {
    let sent: JobMessage | undefined;
    return traceCall(
      telemetry.job,
      () => (sent = { queue: job.queue, name: job.name, ...(job.trace ? { trace: job.trace } : {}) }),
      () => (sent?.within ? sent.within(() => this.#run(job)) : this.#run(job)),
    );
  }

  async #run(job: RunnableJob): Promise<unknown> {
    const started = performance.now();
    const base = { name: job.name, queue: job.queue, id: job.id, attempt: job.attempt };
    this.events.emit("active", base);
    try {
      const entry = this.job(job.name);
      // Whatever the queue holds is checked again: it may not be what the app dispatched.
      const payload = await this.#payloadOf(entry, job.payload);
      const result = await runAttempt(entry, { ...job, payload }, (signal) => ({
        ...base,
        maxAttempts: job.maxAttempts,
        signal,
        locals: this.#locals,
        services: servicesOf(this.#locals),
      }));
      this.events.emit("completed", { ...base, durationMs: performance.now() - started });
      return result;
    } catch (error) {
      const final = (job.failedBefore ?? job.attempt - 1) + 1 >= job.maxAttempts || isUnrecoverable(error);
      this.events.emit("failed", {
        ...base,
        maxAttempts: job.maxAttempts,
        durationMs: performance.now() - started,
        error,
        final,
      });
      throw error;
    }
  }

  /** Starts a worker on `queues` (default: all) with `concurrency` jobs at once per queue (default 1). See also runWorker(). */
  work(options: { queues?: readonly string[]; concurrency?: number } = {}): Promise<DriverWorker> {
    checkOptionKeys("queue.work() options", options, ["queues", "concurrency"]);
    const concurrency = count("queue.work()", "concurrency", options.concurrency, 1, 1);
    return this.#open("starting a worker").work({
      queues: this.#select(options),
      concurrency,
      run: (job) => this.run(job),
      knows: (name) => this.#entries.has(name),
    });
  }

  /** The failed jobs, newest first (default at most 100). */
  failed(options: QueueSelection & { limit?: number } = {}): Promise<FailedJob[]> {
    return this.#open("listing failed jobs").failed(this.#select(options), options.limit ?? 100);
  }

  /** Queues a failed job again, by `queue:id` (as failed() gives it) or a bare id; none is `E_JOB_NOT_FOUND`. */
  async retry(ref: string): Promise<void> {
    const driver = this.#open("retrying a job");
    const colon = ref.indexOf(":");
    const candidates =
      colon > 0
        ? [[ref.slice(0, colon), ref.slice(colon + 1)] as const]
        : this.queueNames().map((queue) => [queue, ref] as const);
    for (const [queue, id] of candidates) if (await driver.retry(queue, id)) return;
    throw new E_JOB_NOT_FOUND(ref);
  }

  /** Queues every failed job again; resolves to how many. */
  retryAll(options: QueueSelection = {}): Promise<number> {
    return this.#open("retrying jobs").retryAll(this.#select(options));
  }

  /** Removes the failed jobs; resolves to how many. */
  clearFailed(options: QueueSelection = {}): Promise<number> {
    return this.#open("clearing failed jobs").clearFailed(this.#select(options));
  }

  /**
   * Makes the queue's schedules those of the registered jobs (on BullMQ, job schedulers: N nodes
   * doing this at once still run each tick once). Workers do it at start.
   */
  async syncSchedules(): Promise<void> {
    const driver = this.#open("scheduling jobs");
    const schedules: ScheduleEntry[] = [];
    for (const entry of this.jobs()) {
      if (!entry.schedule) continue;
      const prepared = await preparePayload(entry.job, entry.schedule.payload);
      schedules.push({
        name: entry.name,
        schedule: entry.schedule,
        payload: this.#stored(entry, prepared.stored),
        options: resolveOptions(entry, undefined),
      });
    }
    await driver.syncSchedules(schedules, this.queueNames());
  }

  /** The schedules and their next runs. */
  listSchedules(): Promise<ScheduledRun[]> {
    return this.#open("listing schedules").schedules(this.queueNames());
  }

  /** How many jobs each queue holds in each state (for metrics: the queue depth is `waiting + delayed`). */
  depth(options: QueueSelection = {}): Promise<Record<string, QueueCounts>> {
    return this.#open("counting jobs").counts(this.#select(options));
  }

  /**
   * Resolves when the queue's backend answers (Redis: a round trip within `dispatchTimeout`), else
   * `E_QUEUE_UNAVAILABLE`: a readiness check (`/readyz`) of the nodes that dispatch.
   */
  ping(): Promise<void> {
    return this.#open("checking the queue").ping();
  }

  /** Closes the connections (workers started with work() are closed by their own close()). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#unbind();
    await this.#driver.close();
  }
}

/**
 * Creates an app's job queue from `QUEUE_URL` (`options.url`, default `memory:`), checking the URL,
 * the options and every job (names, settings, schedules) at start-up. On `redis://` it loads
 * BullMQ (an optional peer: a missing one is `E_JOBS_DRIVER_MISSING`).
 */
export async function createJobQueue(options: JobQueueOptions = {}): Promise<JobQueue> {
  checkOptionKeys("createJobQueue() options", options, JOB_QUEUE_OPTION_KEYS);
  const location = parseQueueUrl(options.url ?? "memory:");
  const settings = resolveQueueSettings(options, location.kind === "bullmq" ? location.prefix : undefined);
  const queue = new JobQueue(options);
  const driver = await createDriver(location, settings, {
    run: (job) => queue.run(job),
    report: (error, where) => queue.events.emit("error", { error, where }),
    stalled: (name, id) => queue.events.emit("stalled", { queue: name, id }),
    deferred: (event) => queue.events.emit("deferred", event),
  });
  queue.attach(driver, options.bind !== false);
  // Failed attempts are counted by the metrics whoever made the queue.
  queue.events.on("failed", reportJobFailure);
  return queue;
}

/**
 * BullMQ on Redis (`QUEUE_URL=redis://...`), what production runs: one BullMQ Queue per queue
 * name for producing (offline queue off, so a dispatch while Redis is down fails fast), Workers
 * with the stalled-job check (a worker that dies mid-job has its job run again elsewhere) and Job
 * Schedulers (N nodes upserting the same schedule still run each tick once).
 */
import type { ConnectionOptions, Job as BullJob, Queue, Worker } from "bullmq";
import { E_QUEUE_UNAVAILABLE, isUnrecoverable } from "../errors.js";
import type { QueueSettings } from "../queue-options.js";
import type { ScheduledRun } from "../schedule.js";
import { DEFAULT_QUEUE } from "../settings.js";
import { traceOf } from "./trace.js";
import { unknownJobDelay } from "./unknown-jobs.js";
import type { RedisLocation } from "../url.js";
import type {
  DriverContext,
  DriverWorker,
  FailedJob,
  QueueCounts,
  QueueDriver,
  QueuedJob,
  RunnableJob,
  ScheduleEntry,
  WorkOptions,
} from "./types.js";

type BullMQ = typeof import("bullmq");

/** ioredis options of a connection to `redis`; `producer` fails commands at once while disconnected. */
function connectionOptions(redis: RedisLocation, producer: boolean, connectTimeout: number): ConnectionOptions {
  return {
    host: redis.host,
    port: redis.port,
    db: redis.db,
    ...(redis.username === undefined ? {} : { username: redis.username }),
    ...(redis.password === undefined ? {} : { password: redis.password }),
    ...(redis.tls ? { tls: {} } : {}),
    connectTimeout,
    // Reconnect forever, at most every 2 s: an outage ends by itself when Redis is back.
    retryStrategy: (times: number) => Math.min(200 * times, 2000),
    ...(producer ? { enableOfflineQueue: false, maxRetriesPerRequest: 0 } : { maxRetriesPerRequest: null }),
  };
}

/** Rejects with `E_QUEUE_UNAVAILABLE` when `promise` takes longer than `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new E_QUEUE_UNAVAILABLE(what, `Redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The BullMQ driver; built by createDriver once bullmq is loaded. */
export class BullMQDriver implements QueueDriver {
  readonly kind = "bullmq" as const;
  readonly #queues = new Map<string, Queue>();

  constructor(
    private readonly bullmq: BullMQ,
    private readonly redis: RedisLocation,
    private readonly settings: QueueSettings,
    private readonly context: DriverContext,
  ) {}

  /** The BullMQ Queue of `name` (made on first use; the dashboard reads them). */
  queue(name: string): Queue {
    let queue = this.#queues.get(name);
    if (!queue) {
      queue = new this.bullmq.Queue(name, {
        connection: connectionOptions(this.redis, true, this.settings.dispatchTimeoutMs),
        prefix: this.settings.prefix,
        defaultJobOptions: {
          removeOnComplete: { count: this.settings.keepCompleted },
          removeOnFail: { count: this.settings.keepFailed },
        },
      });
      queue.on("error", (error) => this.context.report(error, `queue ${name}`));
      this.#queues.set(name, queue);
    }
    return queue;
  }

  /** Waits (at most the dispatch timeout) for the queue's connection; refuses when it is not up. */
  async #ready(name: string, what: string): Promise<Queue> {
    const queue = this.queue(name);
    const client = await within(queue.client, this.settings.dispatchTimeoutMs, what);
    // With the offline queue off a command on a broken connection fails at once; checking first
    // says why in words a user reads.
    if (client.status !== "ready") throw new E_QUEUE_UNAVAILABLE(what, "the connection to Redis is down");
    return queue;
  }

  async #call<T>(name: string, what: string, action: (queue: Queue) => Promise<T>): Promise<T> {
    const queue = await this.#ready(name, what);
    try {
      return await within(action(queue), this.settings.dispatchTimeoutMs, what);
    } catch (error) {
      if ((error as { code?: unknown }).code === E_QUEUE_UNAVAILABLE.code) throw error;
      throw Object.assign(new E_QUEUE_UNAVAILABLE(what, (error as Error).message), { cause: error });
    }
  }

  async add(job: QueuedJob): Promise<string> {
    const { options } = job;
    const added = await this.#call(options.queue, `dispatching ${job.name}`, (queue) =>
      queue.add(job.name, job.payload, {
        attempts: options.attempts,
        backoff: options.backoff,
        ...(options.delay > 0 ? { delay: options.delay } : {}),
        ...(options.priority === undefined ? {} : { priority: options.priority }),
        ...(options.jobId === undefined ? {} : { jobId: options.jobId }),
        // BullMQ's own field for a propagated trace context, kept in the job's options.
        ...(job.trace ? { telemetry: { metadata: JSON.stringify(job.trace) } } : {}),
      }),
    );
    return String(added.id);
  }

  /** Runs a job; an error no retry can mend becomes BullMQ's UnrecoverableError (failed at once, with its message). */
  async #unrecoverable(run: WorkOptions["run"], job: RunnableJob): Promise<unknown> {
    try {
      return await run(job);
    } catch (error) {
      if (isUnrecoverable(error)) throw new this.bullmq.UnrecoverableError((error as Error).message);
      throw error;
    }
  }

  /**
   * Puts a job this process does not know back, delayed, for a worker that knows it (see
   * unknown-jobs.ts); false once it has waited long enough: then it runs here and fails with
   * `E_JOB_UNKNOWN`.
   */
  async #leaveUnknown(job: BullJob, queue: string, token: string): Promise<boolean> {
    const deferrals = await job.log(
      `${new Date().toISOString()}: a worker that does not know the job ${job.name} left it for one that does`,
    );
    const delayMs = unknownJobDelay(deferrals, this.settings.unknownJobWaitMs);
    if (delayMs === undefined) return false;
    await job.moveToDelayed(Date.now() + delayMs, token);
    this.context.deferred({ name: job.name, queue, id: String(job.id), deferrals, delayMs });
    return true;
  }

  async work(options: WorkOptions): Promise<DriverWorker> {
    const running = new Map<string, AbortController>();
    const workers: Worker[] = options.queues.map((name) => {
      const worker = new this.bullmq.Worker(
        name,
        async (job: BullJob, token?: string, signal?: AbortSignal) => {
          // Not a job of this process (another version of the app): left for a worker that knows it.
          if (!options.knows(job.name) && token && (await this.#leaveUnknown(job, name, token)))
            throw new this.bullmq.DelayedError();
          const abort = new AbortController();
          signal?.addEventListener("abort", () => abort.abort(), { once: true });
          const key = `${name}:${job.id}`;
          running.set(key, abort);
          try {
            return await this.#unrecoverable(options.run, {
              id: String(job.id),
              name: job.name,
              queue: name,
              payload: job.data,
              trace: traceOf(job),
              // attemptsStarted counts a run cut short by a stall (its worker killed), which
              // attemptsMade (failed runs) does not; BullMQ's retries follow attemptsMade.
              attempt: Math.max(job.attemptsMade + 1, job.attemptsStarted ?? 0),
              failedBefore: job.attemptsMade,
              maxAttempts: job.opts.attempts ?? 1,
              signal: abort.signal,
            });
          } finally {
            running.delete(key);
          }
        },
        {
          connection: connectionOptions(this.redis, false, 10_000),
          prefix: this.settings.prefix,
          concurrency: options.concurrency,
          lockDuration: this.settings.lockDurationMs,
          stalledInterval: this.settings.stalledIntervalMs,
          maxStalledCount: this.settings.maxStalledCount,
        },
      );
      worker.on("error", (error) => this.context.report(error, `worker of ${name}`));
      worker.on("stalled", (id) => this.context.stalled(name, String(id)));
      return worker;
    });
    // Connected before it answers (so a caller's "ready" means taking jobs), but never held up for
    // long by a Redis that is down: the workers connect by themselves once it is back.
    const ready = Promise.all(
      workers.map((worker) =>
        worker.waitUntilReady().catch((error: unknown) => this.context.report(error, "worker start")),
      ),
    );
    let wait: NodeJS.Timeout | undefined;
    await Promise.race([ready, new Promise<void>((resolve) => (wait = setTimeout(resolve, 10_000)))]);
    clearTimeout(wait);
    return {
      close: async (graceMs: number) => {
        // Stops taking jobs now; the running ones get the grace, then are given up (their lock lapses
        // and a stalled check elsewhere runs them again).
        const gentle = Promise.all(workers.map((worker) => worker.close())).then(() => false);
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(true), graceMs);
        });
        const forced = await Promise.race([gentle, late]);
        clearTimeout(timer);
        if (forced) {
          // BullMQ's close() is one promise, which waits for the running jobs: they are not waited
          // for. Their locks lapse once the process is gone; until then they go on in the background.
          for (const abort of running.values()) abort.abort();
          gentle.catch((error: unknown) => this.context.report(error, "worker close"));
        }
        return { forced };
      },
    };
  }

  async failed(queues: readonly string[], limit: number): Promise<FailedJob[]> {
    const out: FailedJob[] = [];
    for (const name of queues) {
      const jobs = await this.#call(name, "listing failed jobs", (queue) => queue.getFailed(0, limit - 1));
      for (const job of jobs) {
        if (!job) continue;
        out.push({
          ref: `${name}:${job.id}`,
          id: String(job.id),
          queue: name,
          name: job.name,
          payload: job.data,
          error: job.failedReason ?? "",
          stack: job.stacktrace?.at(-1) ?? undefined,
          attemptsMade: job.attemptsMade,
          failedAt: job.finishedOn === undefined ? undefined : new Date(job.finishedOn),
        });
      }
    }
    out.sort((a, b) => (b.failedAt?.getTime() ?? 0) - (a.failedAt?.getTime() ?? 0));
    return out.slice(0, limit);
  }

  async retry(name: string, id: string): Promise<boolean> {
    return this.#call(name, "retrying a job", async (queue) => {
      const job = await queue.getJob(id);
      if (!job || !(await job.isFailed())) return false;
      await job.retry("failed", { resetAttemptsMade: true, resetAttemptsStarted: true });
      return true;
    });
  }

  async retryAll(queues: readonly string[]): Promise<number> {
    let count = 0;
    for (const name of queues) {
      // The ids first: a retried job that fails again at once must not be retried twice here.
      const ids = await this.#call(name, "retrying jobs", async (queue) =>
        (await queue.getFailed(0, -1)).map((job) => String(job.id)),
      );
      for (const id of ids) if (await this.retry(name, id)) count += 1;
    }
    return count;
  }

  async clearFailed(queues: readonly string[]): Promise<number> {
    let count = 0;
    for (const name of queues)
      count += (await this.#call(name, "clearing failed jobs", (queue) => queue.clean(0, 0, "failed"))).length;
    return count;
  }

  async syncSchedules(schedules: readonly ScheduleEntry[], queues: readonly string[]): Promise<void> {
    for (const name of queues) {
      const wanted = schedules.filter((entry) => entry.options.queue === name);
      await this.#call(name, "scheduling jobs", async (queue) => {
        for (const entry of wanted) {
          const repeat =
            entry.schedule.kind === "cron"
              ? { pattern: entry.schedule.cron, ...(entry.schedule.tz ? { tz: entry.schedule.tz } : {}) }
              : { every: entry.schedule.every };
          const { attempts, backoff, priority } = entry.options;
          await queue.upsertJobScheduler(entry.name, repeat, {
            name: entry.name,
            data: entry.payload,
            opts: { attempts, backoff, ...(priority === undefined ? {} : { priority }) },
          });
        }
        // A job that lost its schedule (or moved to another queue) stops running by itself.
        for (const scheduler of await queue.getJobSchedulers(0, -1)) {
          if (!wanted.some((entry) => entry.name === scheduler.key)) await queue.removeJobScheduler(scheduler.key);
        }
      });
    }
  }

  async schedules(queues: readonly string[]): Promise<ScheduledRun[]> {
    const out: ScheduledRun[] = [];
    for (const name of queues) {
      const schedulers = await this.#call(name, "listing schedules", (queue) => queue.getJobSchedulers(0, -1, true));
      for (const scheduler of schedulers) {
        out.push({
          job: scheduler.name,
          queue: name,
          cron: scheduler.pattern ?? undefined,
          tz: scheduler.tz ?? undefined,
          every: scheduler.every ?? undefined,
          next: scheduler.next === undefined ? undefined : new Date(scheduler.next),
        });
      }
    }
    return out;
  }

  async counts(queues: readonly string[]): Promise<Record<string, QueueCounts>> {
    const out: Record<string, QueueCounts> = {};
    for (const name of queues) {
      const counts = await this.#call(name, "counting jobs", (queue) =>
        queue.getJobCounts("waiting", "prioritized", "active", "delayed", "failed", "completed"),
      );
      out[name] = {
        waiting: (counts["waiting"] ?? 0) + (counts["prioritized"] ?? 0),
        active: counts["active"] ?? 0,
        delayed: counts["delayed"] ?? 0,
        failed: counts["failed"] ?? 0,
        completed: counts["completed"] ?? 0,
      };
    }
    return out;
  }

  async ping(): Promise<void> {
    await this.#call(DEFAULT_QUEUE, "checking the queue", async (queue) => {
      // One round trip to Redis through BullMQ's own client.
      await queue.getJobCounts("waiting");
    });
  }

  async close(): Promise<void> {
    await Promise.all([...this.#queues.values()].map((queue) => queue.close().catch(() => {})));
    this.#queues.clear();
  }
}

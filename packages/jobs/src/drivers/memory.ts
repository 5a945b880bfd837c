/**
 * The in-process queue (`memory:`, the development default) and the inline runner (`sync:`):
 * the same retries, backoff, delays, priorities, de-duplication and schedules as BullMQ, kept in
 * this process's memory, so `npm run dev` needs no Redis. Nothing survives a restart.
 */
import { isUnrecoverable } from "../errors.js";
import { backoffDelay } from "../settings.js";
import type { ScheduledRun } from "../schedule.js";
import type {
  DriverContext,
  DriverWorker,
  FailedJob,
  QueueCounts,
  QueueDriver,
  QueuedJob,
  ScheduleEntry,
  WorkOptions,
} from "./types.js";
import { delay, type MemoryJob, type MemoryWorker, rank, toFailedJob, untilSettled } from "./memory-job.js";
import { MemorySchedules } from "./memory-schedules.js";

/** The in-process queue; `sync` runs each job at dispatch, in the dispatcher's await. */
export class MemoryDriver implements QueueDriver {
  readonly kind: "memory" | "sync";
  readonly #jobs = new Map<string, Map<string, MemoryJob>>();
  readonly #workers = new Set<MemoryWorker>();
  readonly #schedules: MemorySchedules;
  readonly #keepCompleted: number;
  readonly #keepFailed: number;
  readonly #context: DriverContext;
  #seq = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(kind: "memory" | "sync", context: DriverContext, keep: { completed: number; failed: number }) {
    this.kind = kind;
    this.#context = context;
    this.#keepCompleted = keep.completed;
    this.#keepFailed = keep.failed;
    this.#schedules = new MemorySchedules((job) => this.add(job).then(() => {}), context.report);
  }

  #queue(name: string): Map<string, MemoryJob> {
    let queue = this.#jobs.get(name);
    if (!queue) {
      queue = new Map();
      this.#jobs.set(name, queue);
    }
    return queue;
  }

  async add(job: QueuedJob): Promise<string> {
    const queue = this.#queue(job.options.queue);
    const seq = ++this.#seq;
    const id = job.options.jobId ?? String(seq);
    // As BullMQ: a jobId already held (in any state) is not queued again.
    if (queue.has(id)) return id;
    const delayed = this.kind === "memory" && job.options.delay > 0;
    const entry: MemoryJob = {
      ...job,
      id,
      seq,
      state: delayed ? "delayed" : "waiting",
      attemptsMade: 0,
      runAt: Date.now() + (delayed ? job.options.delay : 0),
      error: undefined,
      stack: undefined,
      finishedAt: undefined,
    };
    queue.set(id, entry);
    if (this.kind === "sync") await this.#runInline(entry);
    else this.#pump();
    return id;
  }

  /** sync: every attempt at once, no waits; the last error is the dispatcher's. */
  async #runInline(job: MemoryJob): Promise<void> {
    for (;;) {
      job.state = "active";
      try {
        await this.#context.run(this.#runnable(job, new AbortController().signal));
        this.#finish(job, "completed");
        return;
      } catch (error) {
        job.attemptsMade += 1;
        if (job.attemptsMade >= job.options.attempts || isUnrecoverable(error)) {
          this.#fail(job, error);
          throw error;
        }
      }
    }
  }

  #runnable(job: MemoryJob, signal: AbortSignal) {
    return {
      id: job.id,
      name: job.name,
      queue: job.options.queue,
      payload: job.payload,
      trace: job.trace,
      attempt: job.attemptsMade + 1,
      maxAttempts: job.options.attempts,
      signal,
    };
  }

  #finish(job: MemoryJob, state: "completed" | "failed"): void {
    job.state = state;
    job.finishedAt = Date.now();
    const keep = state === "completed" ? this.#keepCompleted : this.#keepFailed;
    const queue = this.#queue(job.options.queue);
    const held = [...queue.values()].filter((other) => other.state === state);
    for (const old of held.slice(0, Math.max(0, held.length - keep))) queue.delete(old.id);
  }

  #fail(job: MemoryJob, error: unknown): void {
    job.error = error instanceof Error ? error.message : String(error);
    job.stack = error instanceof Error ? error.stack : undefined;
    this.#finish(job, "failed");
  }

  /** The next job a worker of `queues` may take now: no priority first, then by priority, then in order. */
  #next(queues: ReadonlySet<string>, now: number): MemoryJob | undefined {
    let best: MemoryJob | undefined;
    for (const name of queues) {
      for (const job of this.#jobs.get(name)?.values() ?? []) {
        if (!((job.state === "waiting" || job.state === "delayed") && job.runAt <= now)) continue;
        if (!best || rank(job) < rank(best) || (rank(job) === rank(best) && job.seq < best.seq)) best = job;
      }
    }
    return best;
  }

  /** Hands ready jobs to idle workers and sets a timer for the next delayed one. */
  #pump(): void {
    const now = Date.now();
    for (const worker of this.#workers) {
      while (!worker.stopped && worker.running.size < worker.concurrency) {
        const job = this.#next(worker.queues, now);
        if (!job) break;
        this.#start(worker, job);
      }
    }
    this.#arm(now);
  }

  #arm(now: number): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    let soonest = Number.POSITIVE_INFINITY;
    for (const queue of this.#jobs.values())
      for (const job of queue.values())
        if (job.state === "delayed" && job.runAt > now) soonest = Math.min(soonest, job.runAt);
    if (soonest === Number.POSITIVE_INFINITY || this.#workers.size === 0) return;
    this.#timer = setTimeout(() => this.#pump(), Math.min(soonest - now, 2 ** 31 - 1));
    this.#timer.unref();
  }

  #start(worker: MemoryWorker, job: MemoryJob): void {
    const abort = new AbortController();
    job.state = "active";
    worker.running.set(job, abort);
    void this.#context
      .run(this.#runnable(job, abort.signal))
      .then(
        () => {
          if (job.state === "active") this.#finish(job, "completed");
        },
        (error: unknown) => {
          if (job.state !== "active") return;
          job.attemptsMade += 1;
          if (job.attemptsMade >= job.options.attempts || isUnrecoverable(error)) return this.#fail(job, error);
          job.state = "delayed";
          job.runAt = Date.now() + backoffDelay(job.options.backoff, job.attemptsMade);
        },
      )
      .finally(() => {
        worker.running.delete(job);
        this.#pump();
      });
  }

  async work(options: WorkOptions): Promise<DriverWorker> {
    const worker: MemoryWorker = {
      queues: new Set(options.queues),
      concurrency: options.concurrency,
      run: options.run,
      running: new Map(),
      stopped: false,
    };
    this.#workers.add(worker);
    this.#pump();
    return {
      close: async (graceMs: number) => {
        worker.stopped = true;
        const finished = Promise.allSettled([...worker.running.keys()].map((job) => untilSettled(job)));
        const forced = await Promise.race([finished.then(() => false), delay(graceMs).then(() => true)]);
        if (forced) {
          // Given up: back to the queue, to run again if this process goes on.
          for (const [job, abort] of worker.running) {
            abort.abort();
            job.state = "waiting";
          }
        }
        this.#workers.delete(worker);
        this.#pump();
        return { forced };
      },
    };
  }

  async failed(queues: readonly string[], limit: number): Promise<FailedJob[]> {
    const failed = queues.flatMap((queue) =>
      [...(this.#jobs.get(queue)?.values() ?? [])].filter((job) => job.state === "failed"),
    );
    failed.sort((a, b) => (b.finishedAt ?? 0) - (a.finishedAt ?? 0) || b.seq - a.seq);
    return failed.slice(0, limit).map(toFailedJob);
  }

  async retry(queue: string, id: string): Promise<boolean> {
    const job = this.#jobs.get(queue)?.get(id);
    if (job?.state !== "failed") return false;
    job.attemptsMade = 0;
    job.error = undefined;
    job.stack = undefined;
    job.finishedAt = undefined;
    job.runAt = Date.now();
    job.state = "waiting";
    if (this.kind === "sync") await this.#runInline(job).catch(() => {});
    else this.#pump();
    return true;
  }

  async retryAll(queues: readonly string[]): Promise<number> {
    let count = 0;
    for (const job of await this.failed(queues, Number.MAX_SAFE_INTEGER))
      if (await this.retry(job.queue, job.id)) count += 1;
    return count;
  }

  async clearFailed(queues: readonly string[]): Promise<number> {
    let count = 0;
    for (const queue of queues) {
      for (const job of [...(this.#jobs.get(queue)?.values() ?? [])]) {
        if (job.state !== "failed") continue;
        this.#jobs.get(queue)!.delete(job.id);
        count += 1;
      }
    }
    return count;
  }

  async syncSchedules(schedules: readonly ScheduleEntry[]): Promise<void> {
    this.#schedules.set(schedules);
  }

  async schedules(queues: readonly string[]): Promise<ScheduledRun[]> {
    return this.#schedules.list().filter((run) => queues.includes(run.queue));
  }

  async counts(queues: readonly string[]): Promise<Record<string, QueueCounts>> {
    const out: Record<string, QueueCounts> = {};
    for (const queue of queues) {
      const counts = { waiting: 0, active: 0, delayed: 0, failed: 0, completed: 0 };
      for (const job of this.#jobs.get(queue)?.values() ?? []) counts[job.state] += 1;
      out[queue] = counts;
    }
    return out;
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.#schedules.set([]);
    if (this.#timer) clearTimeout(this.#timer);
    for (const worker of this.#workers) worker.stopped = true;
  }
}

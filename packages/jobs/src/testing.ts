/**
 * @module @fwkit/jobs/testing
 * The test fake of the job queue: `Job.dispatch()` is recorded (after the schema check, as in
 * production) instead of queued, `dispatched(SendWelcome)` lists what was, and `runAll()` runs the
 * same job classes in the test's process. No Redis.
 */
import type { Dispatcher, DispatchedJob, DispatchOptions, JobClass, JobContext } from "./job.js";
import { useDispatcher } from "./job.js";
import { servicesOf } from "./job-services.js";
import { checkPayload } from "./schema.js";
import { checkJob, resolveOptions } from "./settings.js";

/** One recorded dispatch. */
export interface FakeDispatch<Payload = unknown> {
  readonly id: string;
  readonly name: string;
  readonly queue: string;
  /** The payload as the schema output it (what the job's handle gets). */
  readonly payload: Payload;
  /** The options as given to dispatch. */
  readonly options: DispatchOptions;
  /** Whether runAll() has run it. */
  readonly ran: boolean;
}

/** The fake queue; see {@link createFakeQueue}. */
export interface FakeQueue extends Dispatcher {
  /** The dispatches of `job` (every job without one), in order. */
  dispatched<P>(job: JobClass<P>): FakeDispatch<P>[];
  dispatched(): FakeDispatch[];
  /**
   * Runs every dispatched job not run yet, and those they dispatch, once each, in order; a job
   * that throws stops the run with its error. Resolves to how many ran.
   */
  runAll(): Promise<number>;
  /** Forgets every dispatch. */
  clear(): void;
  /** Puts back the dispatcher that was set before (the fake stops recording). */
  restore(): void;
}

/** What {@link createFakeQueue} takes. */
export interface FakeQueueOptions {
  /** Handed to every job as `context.locals`. */
  readonly locals?: Record<string, unknown>;
  /** Make the fake what `Job.dispatch()` uses (default true). */
  readonly bind?: boolean;
}

interface Recorded extends FakeDispatch {
  readonly job: JobClass;
  ran: boolean;
}

/** A fake queue for tests: records dispatches, runs them on `runAll()`. */
export function createFakeQueue(options: FakeQueueOptions = {}): FakeQueue {
  const recorded: Recorded[] = [];
  const locals = Object.freeze({ ...options.locals });
  let seq = 0;
  const fake: FakeQueue = {
    async dispatch(job: JobClass, payload: unknown, dispatchOptions: DispatchOptions = {}): Promise<DispatchedJob> {
      const entry = checkJob(job);
      const resolved = resolveOptions(entry, dispatchOptions);
      const checked = await checkPayload(job, payload);
      const id = resolved.jobId ?? String(++seq);
      // As the real queue: a jobId already held is not queued twice.
      if (resolved.jobId === undefined || !recorded.some((r) => r.name === entry.name && r.id === id)) {
        recorded.push({
          id,
          name: entry.name,
          queue: entry.queue,
          payload: checked,
          options: dispatchOptions,
          job,
          ran: false,
        });
      }
      return { id, name: entry.name, queue: entry.queue };
    },
    dispatched(job?: JobClass): FakeDispatch[] {
      return recorded.filter((r) => job === undefined || r.job === job).map(({ job: _job, ...rest }) => ({ ...rest }));
    },
    async runAll(): Promise<number> {
      let count = 0;
      for (let next = recorded.find((r) => !r.ran); next; next = recorded.find((r) => !r.ran)) {
        next.ran = true;
        count += 1;
        const context: JobContext = {
          id: next.id,
          name: next.name,
          queue: next.queue,
          attempt: 1,
          maxAttempts: 1,
          signal: new AbortController().signal,
          locals,
          services: servicesOf(locals),
        };
        await new next.job().handle(next.payload, context);
      }
      return count;
    },
    clear(): void {
      recorded.length = 0;
    },
    restore: () => {},
  };
  if (options.bind !== false) fake.restore = useDispatcher(fake);
  return fake;
}

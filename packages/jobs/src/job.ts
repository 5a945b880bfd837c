/**
 * A job: a class whose `handle(payload, context)` runs outside the request, on a worker, with a
 * payload its Standard Schema checks at dispatch. `SendWelcome.dispatch({ userId })` hands it to
 * the process's queue (see {@link useDispatcher}).
 */
import type { AppServices } from "@fwkit/koa-host";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { Duration } from "./duration.js";
import { E_JOB_NO_QUEUE } from "./errors.js";

/** How long to wait between attempts: exponential (the default: delay, 2×delay, 4×delay...) or fixed. */
export interface BackoffOptions {
  readonly type: "exponential" | "fixed";
  /** The first wait (exponential) or every wait (fixed). */
  readonly delay: Duration;
}

/** Options of one dispatch; each overrides the job's own {@link JobSettings}. */
export interface DispatchOptions {
  /** Run no sooner than this long from now. */
  readonly delay?: Duration;
  /** How many times the job runs at most before it is kept as failed (default 3). */
  readonly attempts?: number;
  /** The wait between attempts: a duration (exponential from it) or {@link BackoffOptions} (default exponential from 1 s). */
  readonly backoff?: Duration | BackoffOptions;
  /** 1 (first) to 2,097,152 (last); jobs without a priority come before prioritised ones, as in BullMQ. */
  readonly priority?: number;
  /** A key of your own: a second dispatch with the same jobId while the first is kept is not queued again. */
  readonly jobId?: string;
}

/** The option names {@link DispatchOptions} takes (validated at dispatch). */
export const DISPATCH_OPTION_KEYS = ["delay", "attempts", "backoff", "priority", "jobId"] as const;

/** When a job runs by itself: a cron expression (with an IANA time zone) or a fixed interval. */
export type JobSchedule =
  | { readonly cron: string; readonly tz?: string; readonly payload?: unknown }
  | { readonly every: Duration; readonly payload?: unknown };

/** A job's own settings (`static options` of a class, or `defineJob`'s fields). */
export interface JobSettings {
  /** The queue it goes to (default `"default"`); a worker takes the queues it is told. */
  readonly queue?: string;
  readonly attempts?: number;
  readonly backoff?: Duration | BackoffOptions;
  readonly priority?: number;
  /** Run it by itself on this schedule; across N workers each tick runs once. */
  readonly schedule?: JobSchedule;
  /**
   * How long one attempt may run (default: no limit). Past it the attempt fails with
   * `E_JOB_TIMEOUT` (and is retried) and `context.signal` aborts: a job that stops on the signal
   * stops; one that ignores it goes on in the background, so honour the signal.
   */
  readonly timeout?: Duration;
  /**
   * Keep the payload encrypted on the queue (AES-256-GCM, a key derived from the app's secret
   * key): Redis, the dashboard and `jobs:failed` show only `{ sealed: "..." }`, and a worker runs
   * only payloads this app sealed. For payloads that carry a secret (a link with a token).
   */
  readonly sealed?: boolean;
}

/** The option names {@link JobSettings} takes (validated when the job is registered). */
export const JOB_SETTING_KEYS = ["queue", "attempts", "backoff", "priority", "schedule", "timeout", "sealed"] as const;

/** What a running job knows of itself. */
export interface JobContext {
  /** The job's id on its queue. */
  readonly id: string;
  /** The job's name (its class's `jobName`, or the class name). */
  readonly name: string;
  readonly queue: string;
  /**
   * Which attempt this is, from 1. A run cut short by a stall (its worker killed) counts, so after
   * one the next run sees 2; retries follow failed attempts only, so `attempt` may then pass `maxAttempts`.
   */
  readonly attempt: number;
  /** How many attempts it has in all (runs that failed; a stall does not use one up). */
  readonly maxAttempts: number;
  /** Aborted when the attempt is given up (its timeout, or the worker's shutdown grace, ran out): stop early, it will be retried. */
  readonly signal: AbortSignal;
  /** What the app gave the queue (`createJobQueue({ locals })`): services, a database handle. */
  readonly locals: Readonly<Record<string, unknown>>;
  /**
   * The app's services, typed: `await context.services.mailer.sendMail({ ... })`, `context.services.storage`,
   * `context.services.cache` (E_JOB_OPTION_INVALID when the app runs without the services battery).
   */
  readonly services: AppServices;
}

/** Where `Job.dispatch()` sends jobs: a {@link JobQueue}, or the test fake. */
export interface Dispatcher {
  dispatch(job: JobClass, payload: unknown, options?: DispatchOptions): Promise<DispatchedJob>;
}

/** A job handed to the queue. */
export interface DispatchedJob {
  /** Its id on its queue (the given jobId, when one was). */
  readonly id: string;
  readonly name: string;
  readonly queue: string;
}

/**
 * The base class of jobs. `Payload` is what `handle` receives, `Input` what `dispatch` takes (they
 * differ when the schema transforms). Payloads travel as JSON: plain data, dates as strings.
 *
 * ```ts
 * export class SendWelcome extends Job<{ userId: number }> {
 *   static override schema = z.object({ userId: z.number() });
 *   static override options = { attempts: 5, backoff: "10s" };
 *   async handle({ userId }: { userId: number }) { ... }
 * }
 * await SendWelcome.dispatch({ userId: 1 });
 * ```
 */
export abstract class Job<Payload = unknown, Input = Payload> {
  /** The name a worker finds the job by (default: the class name). Set it when a build minifies class names. */
  static jobName?: string;
  /** The Standard Schema (zod, valibot, arktype...) of the payload; checked at dispatch and again by the worker. */
  static schema?: StandardSchemaV1;
  /** The job's own settings: queue, attempts, backoff, priority, schedule. */
  static options?: JobSettings;

  /** Type-only: what `dispatch` takes. */
  declare readonly __input?: Input;

  /** The work. Throw (or reject) to have it retried; the last failure is kept with its error. */
  abstract handle(payload: Payload, context: JobContext): unknown;

  /** Checks the payload against the schema and queues the job on the process's queue. */
  static async dispatch<J extends Job<never, unknown>>(
    this: JobClassOf<J>,
    payload: InputOf<J>,
    options?: DispatchOptions,
  ): Promise<DispatchedJob> {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the job class dispatch was called on (a subclass), not Job.
    return currentDispatcher(this).dispatch(this as unknown as JobClass, payload, options);
  }
}

/** The static side of a job class. */
export interface JobClass<Payload = unknown, Input = unknown> {
  new (): Job<Payload, Input>;
  readonly name: string;
  readonly jobName?: string | undefined;
  readonly schema?: StandardSchemaV1 | undefined;
  readonly options?: JobSettings | undefined;
}

/** A job class whose instances are `J`. */
export type JobClassOf<J extends Job<never, unknown>> = (new () => J) & Omit<JobClass, "prototype">;

/** What `dispatch` takes for a job instance type. */
export type InputOf<J> = J extends Job<never, infer Input> ? Input : never;

/** The name a job is registered and queued under. */
export function jobNameOf(job: JobClass): string {
  return job.jobName ?? job.name;
}

const DISPATCHER = Symbol.for("fwkit.jobs.dispatcher");
type Holder = { [DISPATCHER]?: Dispatcher };

/**
 * Makes `dispatcher` the one `Job.dispatch()` uses in this process (one per process, shared by two
 * copies of the package); returns the function that puts the previous one back.
 */
export function useDispatcher(dispatcher: Dispatcher | undefined): () => void {
  const holder = globalThis as Holder;
  const previous = holder[DISPATCHER];
  holder[DISPATCHER] = dispatcher;
  return () => {
    if (holder[DISPATCHER] === dispatcher) holder[DISPATCHER] = previous;
  };
}

/** The dispatcher set with {@link useDispatcher}, or `E_JOB_NO_QUEUE` naming the job. */
export function currentDispatcher(job: { readonly name: string; readonly jobName?: string | undefined }): Dispatcher {
  const found = (globalThis as Holder)[DISPATCHER];
  if (!found) throw new E_JOB_NO_QUEUE(job.jobName ?? job.name);
  return found;
}

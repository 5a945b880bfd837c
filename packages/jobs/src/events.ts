/**
 * The jobs' events, for metrics and logs: a small typed emitter the queue fires in the process
 * that runs (or dispatches) a job. A listener that throws is ignored: metrics never fail a job.
 */

/** What each event carries. */
export interface JobEventMap {
  /** A job was handed to the queue. */
  dispatched: { readonly name: string; readonly queue: string; readonly id: string };
  /** A worker started an attempt. */
  active: { readonly name: string; readonly queue: string; readonly id: string; readonly attempt: number };
  /** An attempt succeeded. */
  completed: {
    readonly name: string;
    readonly queue: string;
    readonly id: string;
    readonly attempt: number;
    readonly durationMs: number;
  };
  /** An attempt failed; `final` when no attempt is left (the job is kept as failed). */
  failed: {
    readonly name: string;
    readonly queue: string;
    readonly id: string;
    readonly attempt: number;
    readonly maxAttempts: number;
    readonly durationMs: number;
    readonly error: unknown;
    readonly final: boolean;
  };
  /** A worker of this process found a job whose worker died (its lock lapsed) and put it back to run again. */
  stalled: { readonly queue: string; readonly id: string };
  /**
   * A worker of this process took a job whose name it does not know (another version of the app)
   * and put it back for `delayMs`, for a worker that knows it; `deferrals` counts the times so far.
   */
  deferred: {
    readonly name: string;
    readonly queue: string;
    readonly id: string;
    readonly deferrals: number;
    readonly delayMs: number;
  };
  /** The queue's connection or a worker failed outside any job (Redis down, a lost lock); `where` says which part. */
  error: { readonly error: unknown; readonly where: string };
}

/** The event names. */
export type JobEventName = keyof JobEventMap;

/** A listener of one event. */
export type JobEventListener<K extends JobEventName> = (event: JobEventMap[K]) => void;

/** The typed emitter of a queue (`queue.events`). */
export class JobEvents {
  readonly #listeners = new Map<JobEventName, Set<(event: never) => void>>();

  /** Listens to `event`; returns the function that stops listening. */
  on<K extends JobEventName>(event: K, listener: JobEventListener<K>): () => void {
    let set = this.#listeners.get(event);
    if (!set) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener as (event: never) => void);
    return () => {
      set.delete(listener as (event: never) => void);
    };
  }

  /** Calls every listener of `event`. */
  emit<K extends JobEventName>(event: K, payload: JobEventMap[K]): void {
    for (const listener of this.#listeners.get(event) ?? []) {
      try {
        (listener as JobEventListener<K>)(payload);
      } catch {
        // A metrics listener must not fail the job it reports.
      }
    }
  }
}

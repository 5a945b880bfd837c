import { nextCronRun, type ScheduledRun } from "../schedule.js";
import type { QueuedJob, ScheduleEntry } from "./types.js";

/** The timers of the in-process queue's schedules: each tick queues one job. */
export class MemorySchedules {
  readonly #timers = new Map<string, { entry: ScheduleEntry; next: Date; timer: NodeJS.Timeout }>();

  constructor(
    private readonly add: (job: QueuedJob) => Promise<void>,
    private readonly report: (error: unknown, where: string) => void,
  ) {}

  /** Replaces every schedule with `schedules`. */
  set(schedules: readonly ScheduleEntry[]): void {
    for (const { timer } of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    for (const entry of schedules) this.#arm(entry, new Date());
  }

  #arm(entry: ScheduleEntry, after: Date): void {
    const next =
      entry.schedule.kind === "cron"
        ? nextCronRun(entry.schedule.cron, entry.schedule.tz, after)
        : new Date(Math.floor(after.getTime() / entry.schedule.every + 1) * entry.schedule.every);
    const timer = setTimeout(
      () => {
        this.#arm(entry, next);
        this.add({
          name: entry.name,
          payload: entry.payload,
          options: { ...entry.options, jobId: undefined, delay: 0 },
        }).catch((error: unknown) => this.report(error, `schedule of ${entry.name}`));
      },
      Math.max(0, next.getTime() - Date.now()),
    );
    timer.unref();
    this.#timers.set(entry.name, { entry, next, timer });
  }

  /** The schedules and their next runs. */
  list(): ScheduledRun[] {
    return [...this.#timers.values()].map(({ entry, next }) => ({
      job: entry.name,
      queue: entry.options.queue,
      cron: entry.schedule.kind === "cron" ? entry.schedule.cron : undefined,
      tz: entry.schedule.kind === "cron" ? entry.schedule.tz : undefined,
      every: entry.schedule.kind === "every" ? entry.schedule.every : undefined,
      next,
    }));
  }
}

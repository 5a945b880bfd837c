import { cronParser } from "./cron.js";
import { toMs } from "./duration.js";
import { E_JOB_SCHEDULE_INVALID } from "./errors.js";
import type { JobClass, JobSchedule } from "./job.js";

/** A job's schedule, checked: a cron expression with its zone, or an interval in milliseconds. */
export type ParsedSchedule =
  | { readonly kind: "cron"; readonly cron: string; readonly tz: string | undefined; readonly payload: unknown }
  | { readonly kind: "every"; readonly every: number; readonly payload: unknown };

/** A scheduled job and when it runs next. */
export interface ScheduledRun {
  /** The job's name. */
  readonly job: string;
  readonly queue: string;
  /** The cron expression, or undefined for an interval. */
  readonly cron: string | undefined;
  readonly tz: string | undefined;
  /** The interval in milliseconds, or undefined for a cron schedule. */
  readonly every: number | undefined;
  /** The next run, when the queue knows it. */
  readonly next: Date | undefined;
}

const describe = (schedule: JobSchedule): string => JSON.stringify(schedule) ?? String(schedule);

/** Checks `schedule` of the job `name` at start-up: a cron that does not parse is `E_JOB_SCHEDULE_INVALID`. */
export function parseSchedule(name: string, schedule: JobSchedule): ParsedSchedule {
  if (typeof schedule !== "object" || schedule === null)
    throw new E_JOB_SCHEDULE_INVALID(name, String(schedule), "a schedule is { cron, tz? } or { every }");
  const keys = Object.keys(schedule).filter((key) => key !== "payload");
  if ("cron" in schedule) {
    const unknown = keys.filter((key) => key !== "cron" && key !== "tz");
    if (unknown.length > 0)
      throw new E_JOB_SCHEDULE_INVALID(
        name,
        describe(schedule),
        `unknown key ${unknown.join(", ")} (a cron schedule takes cron, tz and payload)`,
      );
    if (typeof schedule.cron !== "string")
      throw new E_JOB_SCHEDULE_INVALID(name, describe(schedule), "cron must be a string");
    if (schedule.tz !== undefined && !isTimeZone(schedule.tz))
      throw new E_JOB_SCHEDULE_INVALID(
        name,
        describe(schedule),
        `tz ${JSON.stringify(schedule.tz)} is not an IANA time zone`,
      );
    // Loaded outside the try: a missing cron-parser is its own error, not an invalid schedule.
    const parse = cronParser(`cron schedule of the job ${name}`);
    try {
      parse(schedule.cron, { tz: schedule.tz ?? "UTC" });
    } catch (error) {
      throw new E_JOB_SCHEDULE_INVALID(name, describe(schedule), (error as Error).message);
    }
    return { kind: "cron", cron: schedule.cron, tz: schedule.tz, payload: schedule.payload };
  }
  if ("every" in schedule) {
    const unknown = keys.filter((key) => key !== "every");
    if (unknown.length > 0)
      throw new E_JOB_SCHEDULE_INVALID(
        name,
        describe(schedule),
        `unknown key ${unknown.join(", ")} (an interval schedule takes every and payload)`,
      );
    let every: number;
    try {
      every = toMs(schedule.every, `schedule of ${name}`, "every");
    } catch (error) {
      throw new E_JOB_SCHEDULE_INVALID(name, describe(schedule), (error as Error).message);
    }
    if (every < 1000) throw new E_JOB_SCHEDULE_INVALID(name, describe(schedule), "every must be at least 1s");
    return { kind: "every", every, payload: schedule.payload };
  }
  throw new E_JOB_SCHEDULE_INVALID(name, describe(schedule), "a schedule is { cron, tz? } or { every }");
}

function isTimeZone(tz: unknown): boolean {
  if (typeof tz !== "string") return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The next run of a cron schedule after `after`. */
export function nextCronRun(cron: string, tz: string | undefined, after: Date): Date {
  return cronParser(`cron schedule ${cron}`)(cron, { tz: tz ?? "UTC", currentDate: after })
    .next()
    .toDate();
}

/**
 * Class decorator: runs the job by itself on a cron expression (`@schedule("0 3 * * *", { tz:
 * "Europe/Paris" })`) or an interval (`@schedule({ every: "5m" })`). The same as `static options
 * = { schedule }`; checked when the job is registered.
 */
export function schedule(cronOrSchedule: string | JobSchedule, options: { tz?: string; payload?: unknown } = {}) {
  return (value: JobClass, context: ClassDecoratorContext): void => {
    const spec: JobSchedule =
      typeof cronOrSchedule === "string" ? { cron: cronOrSchedule, ...options } : cronOrSchedule;
    // Runs once the class's static fields are set, so a `static options` keeps its other settings.
    context.addInitializer(() => {
      Object.defineProperty(value, "options", {
        value: { ...value.options, schedule: spec },
        configurable: true,
        writable: true,
        enumerable: true,
      });
    });
  };
}

/**
 * Presenting dates: stored in UTC, shown in the app's configured time zone or as "3 hours ago".
 * Built on dayjs (utc, timezone, relativeTime plugins); templates of both frameworks get these
 * functions through `dateHelpers(config)`.
 */
import dayjs from "dayjs";
import relativeTime from "dayjs/plugin/relativeTime.js";
import timezone from "dayjs/plugin/timezone.js";
import utc from "dayjs/plugin/utc.js";
import { toDate } from "./date-columns.js";
import { E_BAD_TIMEZONE } from "./errors.js";

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(relativeTime);

/** The format used when none is given: `2024-05-01 14:30`. */
export const DEFAULT_DATE_FORMAT = "YYYY-MM-DD HH:mm";

/** What a date helper accepts: a Date, epoch milliseconds or a date string; null/undefined give "". */
export type DateInput = Date | number | string | null | undefined;

/** Options of {@link dateHelpers}. */
export interface DateConfig {
  /** IANA time zone dates are shown in. Default "UTC". */
  readonly timezone?: string;
  /** dayjs format used when a template gives none. Default "YYYY-MM-DD HH:mm". */
  readonly dateFormat?: string;
}

/** Throws E_BAD_TIMEZONE unless `zone` is a time zone the runtime knows. */
export function assertTimezone(zone: string): string {
  // The default needs no check, and the first Intl.DateTimeFormat costs ~30 ms of ICU set-up at start.
  if (zone === "UTC") return zone;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return zone;
  } catch {
    throw new E_BAD_TIMEZONE(zone);
  }
}

function parse(date: DateInput): dayjs.Dayjs | undefined {
  if (date === null || date === undefined || date === "") return undefined;
  const value = toDate(date);
  const parsed = dayjs.utc(value instanceof Date ? value : (value as string));
  return parsed.isValid() ? parsed : undefined;
}

/**
 * Formats `date` with a dayjs format string (`YYYY-MM-DD HH:mm`, `D MMM YYYY`, ...) in time
 * zone `tz` (IANA name, default UTC). Invalid or missing dates give "".
 */
export function formatDate(date: DateInput, format: string = DEFAULT_DATE_FORMAT, tz = "UTC"): string {
  const parsed = parse(date);
  if (!parsed) return "";
  return (tz === "UTC" ? parsed : parsed.tz(assertTimezone(tz))).format(format);
}

/** "3 hours ago", "in 2 days": `date` relative to `now` (default: the current time). */
export function timeAgo(date: DateInput, now: DateInput = new Date()): string {
  const parsed = parse(date);
  const reference = parse(now);
  if (!parsed || !reference) return "";
  return parsed.from(reference);
}

/** ISO 8601 in UTC (`2024-05-01T12:00:00.000Z`), for `<time datetime>` and APIs. */
export function isoDate(date: DateInput): string {
  return parse(date)?.toISOString() ?? "";
}

/** The date helpers a template gets, bound to the app's time zone and default format. */
export interface DateHelpers {
  /** `formatDate(date, format?, tz?)` in the configured zone unless `tz` is given. */
  readonly formatDate: (date: DateInput, format?: string, tz?: string) => string;
  readonly timeAgo: (date: DateInput) => string;
  readonly isoDate: (date: DateInput) => string;
  /** The configured zone, for templates that print it. */
  readonly timezone: string;
}

/**
 * Date helpers bound to an app's config (`timezone`, `dateFormat`), to register as template
 * globals or filters. Fails at start-up (E_BAD_TIMEZONE) on an unknown zone.
 */
export function dateHelpers(config: DateConfig = {}): DateHelpers {
  const zone = assertTimezone(config.timezone ?? "UTC");
  const defaultFormat = config.dateFormat ?? DEFAULT_DATE_FORMAT;
  return {
    formatDate: (date, format, tz) => formatDate(date, format ?? defaultFormat, tz ?? zone),
    timeAgo: (date) => timeAgo(date),
    isoDate,
    timezone: zone,
  };
}

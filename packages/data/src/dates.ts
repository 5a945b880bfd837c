/**
 * Presenting dates: stored in UTC, shown in the app's configured time zone or as "3 hours ago".
 * Built on dayjs (utc, timezone, relativeTime plugins); templates of both frameworks get these
 * functions through `dateHelpers(config)`.
 */
import { createRequire } from "node:module";
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

/**
 * Named formats written the way the request's language writes dates (Intl): `date` (5 mars 2026),
 * `datetime`, `time`, `long`. Any other format is a dayjs format string.
 */
export const DATE_STYLES: Readonly<Record<string, Intl.DateTimeFormatOptions>> = Object.freeze({
  date: { dateStyle: "medium" },
  datetime: { dateStyle: "medium", timeStyle: "short" },
  time: { timeStyle: "short" },
  long: { dateStyle: "long", timeStyle: "short" },
});

const requireHere = createRequire(import.meta.url);
const dayjsLocales = new Map<string, string>();
const intlFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The dayjs locale for a language tag (`pt-BR` -> `pt-br`, else `pt`), loaded once; English when
 * dayjs has none. Month and day names and "3 hours ago" then read in that language.
 */
function dayjsLocale(locale: string): string {
  const known = dayjsLocales.get(locale);
  if (known) return known;
  let found = "en";
  const lower = locale.toLowerCase();
  for (const candidate of [lower, lower.split("-")[0]!]) {
    if (!/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/.test(candidate)) continue;
    try {
      requireHere(`dayjs/locale/${candidate}.js`);
      found = candidate;
      break;
    } catch {
      // Not a language dayjs knows: try the primary language, then English.
    }
  }
  dayjsLocales.set(locale, found);
  return found;
}

function intlFormat(locale: string, style: string, zone: string): Intl.DateTimeFormat {
  const key = `${locale}|${style}|${zone}`;
  let format = intlFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...DATE_STYLES[style], timeZone: zone });
    intlFormats.set(key, format);
  }
  return format;
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
 * Formats `date` with a dayjs format string (`YYYY-MM-DD HH:mm`, `D MMM YYYY`, ...) or a named
 * style of {@link DATE_STYLES}, in time zone `tz` (IANA name, default UTC) and language `locale`
 * (month names, word order; default English). Invalid or missing dates give "".
 */
export function formatDate(date: DateInput, format: string = DEFAULT_DATE_FORMAT, tz = "UTC", locale?: string): string {
  const parsed = parse(date);
  if (!parsed) return "";
  const zone = tz === "UTC" ? tz : assertTimezone(tz);
  if (Object.hasOwn(DATE_STYLES, format)) return intlFormat(locale ?? "en", format, zone).format(parsed.toDate());
  const zoned = zone === "UTC" ? parsed : parsed.tz(zone);
  return (locale ? zoned.locale(dayjsLocale(locale)) : zoned).format(format);
}

/** "3 hours ago", "in 2 days" ("il y a 3 heures" in French): `date` relative to `now` (default: the current time). */
export function timeAgo(date: DateInput, now: DateInput = new Date(), locale?: string): string {
  const parsed = parse(date);
  const reference = parse(now);
  if (!parsed || !reference) return "";
  return (locale ? parsed.locale(dayjsLocale(locale)) : parsed).from(reference);
}

/** ISO 8601 in UTC (`2024-05-01T12:00:00.000Z`), for `<time datetime>` and APIs. */
export function isoDate(date: DateInput): string {
  return parse(date)?.toISOString() ?? "";
}

/** The date helpers a template gets, bound to the app's time zone and default format. */
export interface DateHelpers {
  /** `formatDate(date, format?, tz?, locale?)` in the configured zone unless `tz` is given. */
  readonly formatDate: (date: DateInput, format?: string, tz?: string, locale?: string) => string;
  readonly timeAgo: (date: DateInput, locale?: string) => string;
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
    formatDate: (date, format, tz, locale) => formatDate(date, format ?? defaultFormat, tz ?? zone, locale),
    timeAgo: (date, locale) => timeAgo(date, new Date(), locale),
    isoDate,
    timezone: zone,
  };
}

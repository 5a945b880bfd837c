/**
 * Dates and numbers written the way a language writes them (Intl), in a given time zone. The
 * formatters are built once per language, zone and style and kept.
 */

/** How much of a date to show. */
export type DateStyle = "date" | "datetime" | "time" | "long";

const STYLES: Record<DateStyle, Intl.DateTimeFormatOptions> = {
  date: { dateStyle: "medium" },
  datetime: { dateStyle: "medium", timeStyle: "short" },
  time: { timeStyle: "short" },
  long: { dateStyle: "long", timeStyle: "short" },
};

const dateFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();

/** A date in `locale`'s words and order, in `timeZone` (default UTC); an invalid date gives "". */
export function formatDate(value: Date | string | number, locale: string, options: { timeZone?: string; style?: DateStyle } = {}): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  const style = options.style ?? "datetime";
  const timeZone = options.timeZone ?? "UTC";
  const key = `${locale}|${timeZone}|${style}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...STYLES[style], timeZone });
    dateFormats.set(key, format);
  }
  return format.format(date);
}

/** A number with `locale`'s digit grouping and decimal sign (`1,234.5` in en, `1 234,5` in fr). */
export function formatNumber(value: number, locale: string, options: Intl.NumberFormatOptions = {}): string {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, format);
  }
  return format.format(value);
}

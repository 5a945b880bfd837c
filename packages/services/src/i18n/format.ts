/**
 * Numbers written the way a language writes them (Intl): digit grouping and decimal sign. Dates
 * are the data package's (formatDate, timeAgo), which take the same locale. Formatters are built
 * once per language and options and kept.
 */

const numberFormats = new Map<string, Intl.NumberFormat>();

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

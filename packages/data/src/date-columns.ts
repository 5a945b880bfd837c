/**
 * SQLite has no date type. This package stores dates there as epoch milliseconds (INTEGER, UTC by
 * definition; knex's better-sqlite3 dialect already binds Date objects that way, so comparisons
 * with Date bindings agree) and turns them back into Date objects on the way out.
 */

const DATE_TEXT = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?$/;

/** True for the column names this package treats as dates by convention (`*_at`). */
export function isDateColumnName(name: string): boolean {
  return name.endsWith("_at");
}

/**
 * A stored date value as a Date: epoch milliseconds, or text such as SQLite's CURRENT_TIMESTAMP
 * (`2024-05-01 12:00:00`, read as UTC) or ISO 8601. Anything else is returned unchanged.
 */
export function toDate(value: unknown): unknown {
  if (value instanceof Date || value === null || value === undefined) return value;
  if (typeof value === "number" || typeof value === "bigint") {
    const date = new Date(Number(value));
    return Number.isNaN(date.getTime()) ? value : date;
  }
  if (typeof value === "string") {
    const match = DATE_TEXT.exec(value);
    if (!match) return value;
    const [, day, time, zone] = match;
    const date = new Date(`${day}T${time ?? "00:00:00"}${zone ?? "Z"}`);
    return Number.isNaN(date.getTime()) ? value : date;
  }
  return value;
}

/** Converts the named columns of one row in place (and returns it). */
export function convertDateColumns<T>(row: T, columns: Iterable<string>): T {
  if (row === null || typeof row !== "object") return row;
  const record = row as Record<string, unknown>;
  for (const column of columns) if (column in record) record[column] = toDate(record[column]);
  return row;
}

/** Converts every `*_at` column of one row in place (and returns it). */
export function convertConventionalDates<T>(row: T): T {
  if (row === null || typeof row !== "object" || Array.isArray(row) || row instanceof Date) return row;
  return convertDateColumns(row, Object.keys(row).filter(isDateColumnName));
}

/**
 * knex `postProcessResponse` hook for SQLite: every `*_at` column of every result row becomes a
 * Date, so `query()` and raw results agree with the model methods.
 */
export function sqliteDatePostProcess(result: unknown): unknown {
  if (Array.isArray(result)) {
    for (const row of result) convertConventionalDates(row);
    return result;
  }
  return convertConventionalDates(result);
}

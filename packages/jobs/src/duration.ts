import { E_JOB_OPTION_INVALID } from "./errors.js";

/** A length of time: milliseconds, or a string such as `"500ms"`, `"30s"`, `"5m"`, `"2h"`, `"1d"`. */
export type Duration = number | string;

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const PATTERN = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/;

/** Milliseconds of a {@link Duration}; `where` and `option` name it in the error of a bad one. */
export function toMs(value: Duration, where: string, option: string): number {
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return Math.round(value);
  const match = typeof value === "string" ? PATTERN.exec(value.trim()) : null;
  if (match) return Math.round(Number(match[1]) * UNITS[match[2]!]!);
  throw new E_JOB_OPTION_INVALID(
    where,
    option,
    'a number of milliseconds or a duration such as "30s", "5m", "2h"',
    value,
  );
}

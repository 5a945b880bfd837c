import { E_JOB_OPTION_INVALID } from "./errors.js";

/** A length of time: milliseconds, or a string such as `"500ms"`, `"30s"`, `"5m"`, `"2h"`, `"1d"`. */
export type Duration = number | string;

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const PATTERN = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/;

/** What a valid {@link Duration} is, for errors. */
export const DURATION_EXPECTED = 'a number of milliseconds or a duration such as "30s", "5m", "2h"';

/** Milliseconds of a {@link Duration}, or undefined for a value that is none. */
export function msOf(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return Math.round(value);
  const match = typeof value === "string" ? PATTERN.exec(value.trim()) : null;
  return match ? Math.round(Number(match[1]) * UNITS[match[2]!]!) : undefined;
}

/** Milliseconds of a {@link Duration}; `where` and `option` name it in the error of a bad one. */
export function toMs(value: Duration, where: string, option: string): number {
  const ms = msOf(value);
  if (ms === undefined) throw new E_JOB_OPTION_INVALID(where, option, DURATION_EXPECTED, value);
  return ms;
}

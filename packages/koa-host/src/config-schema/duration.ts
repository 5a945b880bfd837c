/**
 * Durations in config: one reading for every battery, so `"30s"` or `" 5m "` from the environment
 * means the same to the jobs queue and to the realtime streams.
 */

/** A length of time: milliseconds, or a number with a unit: `"500ms"`, `"30s"`, `"5m"`, `"2h"`, `"1d"`. */
export type Duration = number | string;

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
// A number without a unit is milliseconds, as an environment variable writes one.
const PATTERN = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/;

/** What a valid {@link Duration} is, for errors. */
export const DURATION_EXPECTED = 'a number of milliseconds or a duration such as "500ms", "30s", "5m", "2h", "1d"';

/** Whole milliseconds of a {@link Duration}, or `undefined` for a value that is none (negative, no unit, `NaN`). */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
  const match = typeof value === "string" ? PATTERN.exec(value.trim()) : null;
  return match ? Math.round(Number(match[1]) * UNITS[match[2] ?? "ms"]!) : undefined;
}

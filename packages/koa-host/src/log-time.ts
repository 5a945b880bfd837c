/**
 * The `time` field of JSON log lines in ISO 8601 (UTC), as pino's `stdTimeFunctions.isoTime` writes
 * it. `Date.prototype.toISOString` formats through the engine's C++ date code (about 7,000
 * instructions a call), so it runs once per second: a line takes that second's prefix and its
 * millisecond from a table. A quiet server, whose every line falls in a new millisecond, pays for
 * the formatting once a second instead of on every line.
 */

/** "000" to "999". */
const MILLISECONDS = Array.from({ length: 1000 }, (_, ms) => String(ms).padStart(3, "0"));

let second = Number.NaN;
let prefix = "";
let lastMs = Number.NaN;
let lastField = "";

/** The field for the time `now` (milliseconds since the epoch): `,"time":"2026-11-27T15:58:52.998Z"`. */
export function isoTimeFieldAt(now: number): string {
  if (now === lastMs) return lastField;
  const ms = ((now % 1000) + 1000) % 1000;
  if (now - ms !== second) {
    second = now - ms;
    // "2026-11-27T15:58:52.000Z" less its "000Z" (years past 9999 have a longer, signed prefix).
    prefix = `,"time":"${new Date(second).toISOString().slice(0, -4)}`;
  }
  lastMs = now;
  lastField = `${prefix}${MILLISECONDS[ms]}Z"`;
  return lastField;
}

/** pino's `timestamp` option: the field for the current time ({@link isoTimeFieldAt}). */
export function isoTimeField(): string {
  return isoTimeFieldAt(Date.now());
}

/**
 * The one rule every battery reads config values by. A value may come from `lib/config.ts` (typed:
 * a number is a number) or from an environment variable (always a string), so each kind of key
 * takes its own type or the string an environment variable would carry for it:
 *
 * - not set: `undefined`, `null` and `""` (an empty variable) all mean "use the default";
 * - a boolean: `true`/`false`, or the strings `true`, `false`, `1`, `0`, `yes`, `no`, `on`, `off`
 *   (any case, spaces around ignored); any other string is refused;
 * - a number: a number, or a string that is a decimal number (`"15"`, `"0.5"`, `"1e3"`; spaces around
 *   ignored); `"0x10"`, `"Infinity"`, `"12px"` are refused;
 * - a list of strings: a list, or one string of comma-separated items (`"a, b"`), blanks dropped;
 * - a string: a string (a number is not turned into one).
 *
 * The functions return {@link NOT_READ} for a value of the wrong kind; the schema (schema.ts) turns
 * that into the battery's own start-up error naming the key.
 */

/** Returned by a coercer for a value it cannot read as its kind. */
export const NOT_READ: unique symbol = Symbol("not read");

/** What a coercer returns: the value read, or {@link NOT_READ}. */
export type Coerced<T> = T | typeof NOT_READ;

/** True for the values that mean "not set": `undefined`, `null` and the empty string. */
export function isUnset(value: unknown): value is undefined | null | "" {
  return value === undefined || value === null || value === "";
}

const TRUE = new Set(["true", "1", "yes", "on"]);
const FALSE = new Set(["false", "0", "no", "off"]);

/** A boolean, or one of the strings `true`/`1`/`yes`/`on`, `false`/`0`/`no`/`off` (any case). */
export function coerceBoolean(value: unknown): Coerced<boolean> {
  if (typeof value === "boolean") return value;
  if (typeof value !== "string") return NOT_READ;
  const word = value.trim().toLowerCase();
  return TRUE.has(word) ? true : FALSE.has(word) ? false : NOT_READ;
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A finite number, or a string that is a decimal number. */
export function coerceNumber(value: unknown): Coerced<number> {
  if (typeof value === "number") return Number.isFinite(value) ? value : NOT_READ;
  if (typeof value !== "string" || !DECIMAL.test(value.trim())) return NOT_READ;
  return Number(value.trim());
}

/** A list of strings, or one string of comma-separated items; blank items are dropped from a string. */
export function coerceStringList(value: unknown): Coerced<readonly string[]> {
  if (typeof value === "string")
    return value
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean);
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return [...value];
  return NOT_READ;
}

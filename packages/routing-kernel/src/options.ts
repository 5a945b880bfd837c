/**
 * Start-up checks of the option objects users write (decorator options, plugin options, config
 * blocks): an unknown key is an error naming the known ones and the closest of them, so a typo
 * such as `origin` for `origins` fails at start instead of being silently ignored.
 */
import { E_UNKNOWN_OPTION } from "./errors.js";

/** Edit distance of two short strings (Levenshtein; case counts as one edit). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The known name closest to `name` ("did you mean"): equal ignoring case, one a prefix of the
 * other (`origin` / `origins`), or within a few edits; undefined when none is close.
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const other = candidate.toLowerCase();
    // A name one letter off the end of a key is that key, not a shorter key it starts with
    // ("environmentsx" is "environments", not "env"): among prefixes, the closest length wins.
    const prefix = other.startsWith(lower) || lower.startsWith(other);
    const score =
      other === lower ? 0 : prefix ? 1 + Math.abs(other.length - lower.length) / 1000 : distance(lower, other);
    if (score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  const limit = Math.max(2, Math.floor(name.length / 3));
  return bestScore <= limit ? best : undefined;
}

/** True for `{}`-style objects (not arrays, class instances, functions or null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Checks that an options object has only known keys; `where` names it as the user wrote it
 * (`@cors(options)`). Throws `E_UNKNOWN_OPTION` naming the known keys and the closest one.
 * A value that is not a plain object (a number, a function) is also refused when keys are known.
 */
export function checkOptionKeys(where: string, options: unknown, known: readonly string[]): void {
  if (options === undefined) return;
  if (!isPlainObject(options)) {
    throw new E_UNKNOWN_OPTION(where, describe(options), known);
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw new E_UNKNOWN_OPTION(where, key, known, closestName(key, known));
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object that is not a plain {...}" : typeof value;
}

import { E_BENCH_OPTION } from "./errors.js";

/** The `--name=value` options and `--switch`es of a bench mode, checked against the ones it knows. */
export interface Flags {
  /** The value of `--key=value`, if given. */
  get(key: string): string | undefined;
  /** Whether `--name` (a switch) was given. */
  has(name: string): boolean;
  /** `--key=N` as a positive number (a whole one with `whole`), or `fallback`; anything else is refused. */
  number(key: string, fallback: number, whole?: boolean): number;
}

/**
 * Reads `argv` as `--key=value` options of `known` and bare switches of `switches`; an unknown or
 * malformed argument is E_BENCH_OPTION naming every known one.
 */
export function parseFlags(argv: readonly string[], known: readonly string[], switches: readonly string[] = []): Flags {
  const values = new Map<string, string>();
  const given = new Set<string>();
  const list = [...known.map((k) => `--${k}=`), ...switches.map((s) => `--${s}`)].join(" ");
  for (const arg of argv) {
    if (switches.includes(arg.slice(2)) && arg.startsWith("--")) {
      given.add(arg.slice(2));
      continue;
    }
    const match = /^--([a-z]+)=(.+)$/.exec(arg);
    if (!match || !known.includes(match[1]!)) throw new E_BENCH_OPTION(`Unknown argument "${arg}"; known: ${list}.`);
    values.set(match[1]!, match[2]!);
  }
  return {
    get: (key) => values.get(key),
    has: (name) => given.has(name),
    number(key, fallback, whole = false) {
      const value = Number(values.get(key) ?? fallback);
      if (!Number.isFinite(value) || value <= 0 || (whole && !Number.isInteger(value)))
        throw new E_BENCH_OPTION(`--${key} needs a positive ${whole ? "whole " : ""}number.`);
      return value;
    },
  };
}

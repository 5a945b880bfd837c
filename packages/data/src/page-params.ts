/**
 * `page` and `perPage` come from the query string, so they are client input: anything that is not
 * a usable positive whole number is answered with 400 (E_BAD_PAGE_PARAM) before it reaches SQL,
 * and a `perPage` above the limit is clamped to it.
 */
import { E_BAD_PAGE_PARAM } from "./errors.js";

/** A validated page request. */
export interface PageParams {
  /** 1-based page number. */
  readonly page: number;
  /** Rows per page, between 1 and `maxPerPage`. */
  readonly perPage: number;
}

/** Options of {@link pageParams}. */
export interface PageParamsOptions {
  /** Largest `perPage` honoured; larger values are clamped. Default 100. */
  readonly maxPerPage?: number;
  /** `perPage` when the query has none. Default 20 (or maxPerPage when smaller). */
  readonly defaultPerPage?: number;
  /** Largest page number accepted. Default 1 000 000. */
  readonly maxPage?: number;
  /** Instead of 400, replace bad values by the defaults and clamp big ones. Default false. */
  readonly lenient?: boolean;
}

type QueryValue = string | readonly string[] | undefined | null | unknown;

function read(
  query: Readonly<Record<string, QueryValue>>,
  names: readonly string[],
): { name: string; value: unknown } | undefined {
  for (const name of names) if (query[name] !== undefined && query[name] !== "") return { name, value: query[name] };
  return undefined;
}

/**
 * Reads `page` and `perPage` (or `per_page`) from a parsed query string (`ctx.query`), with
 * defaults page 1 and `defaultPerPage`. Non-numbers, fractions, zero, negatives, repeated
 * parameters and pages above `maxPage` give E_BAD_PAGE_PARAM (400) unless `lenient`.
 */
export function pageParams(query: Readonly<Record<string, QueryValue>>, options: PageParamsOptions = {}): PageParams {
  const maxPerPage = Math.max(1, Math.trunc(options.maxPerPage ?? 100));
  const defaultPerPage = Math.min(maxPerPage, Math.max(1, Math.trunc(options.defaultPerPage ?? 20)));
  const maxPage = Math.max(1, Math.trunc(options.maxPage ?? 1_000_000));
  const lenient = options.lenient ?? false;

  const whole = (
    found: { name: string; value: unknown } | undefined,
    fallback: number,
    max: number,
    clampAlways: boolean,
  ): number => {
    if (!found) return fallback;
    const { name, value } = found;
    const shown = Array.isArray(value) ? value.join(",") : String(value);
    const fail = (why: string): number => {
      if (lenient) return fallback;
      throw new E_BAD_PAGE_PARAM(name, shown, why);
    };
    if (typeof value !== "string") return fail("is given more than once; give it once");
    const text = value.trim();
    if (!/^\d+$/.test(text)) return fail("must be a whole number of 1 or more");
    const n = text.length > 15 ? Number.POSITIVE_INFINITY : Number(text);
    if (n < 1) return fail("must be 1 or more");
    if (n > max) return clampAlways || lenient ? max : fail(`is too large (at most ${max})`);
    return n;
  };

  return {
    page: whole(read(query, ["page"]), 1, maxPage, false),
    perPage: whole(read(query, ["perPage", "per_page"]), defaultPerPage, maxPerPage, true),
  };
}

// The reading of a duration is the config schemas' (the same in every battery's config).
import { DURATION_EXPECTED, type Duration, parseDuration } from "@fwkit/koa-host/config-schema";
import { E_JOB_OPTION_INVALID } from "./errors.js";

export type { Duration };

/** Milliseconds of a {@link Duration}; `where` and `option` name it in the error of a bad one. */
export function toMs(value: Duration, where: string, option: string): number {
  const ms = parseDuration(value);
  if (ms === undefined) throw new E_JOB_OPTION_INVALID(where, option, DURATION_EXPECTED, value);
  return ms;
}

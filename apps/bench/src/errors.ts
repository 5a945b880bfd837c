/**
 * Errors of the bench, each with a stable code (see docs/errors.md): a wrong `pnpm bench` argument,
 * and a server, command or load generator that did not do what a measurement needs.
 */
import { createError } from "routing-kernel";

/** A `pnpm bench` argument the bench does not know or cannot use. */
export const E_BENCH_OPTION = createError(
  "E_BENCH_OPTION",
  500,
  (problem: string) => `${problem} See docs/benchmarks.md for the options.`,
);

/**
 * A bench server, a command it needs (scaffold, build, migrate) or the load generator failed; the
 * run stops rather than measure something else than what it reports.
 */
export const E_BENCH_RUN = createError("E_BENCH_RUN", 500, (what: string, problem: string) => `${what}: ${problem}`);

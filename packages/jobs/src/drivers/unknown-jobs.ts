/**
 * A job a worker does not know (its name is not among this process's jobs) is most often one a
 * newer version of the app dispatched while older workers still run, during a rolling deploy: it
 * is put back, delayed, for a worker that knows it, each time a little longer (1 s, 2 s, 4 s... at
 * most 30 s), and fails with `E_JOB_UNKNOWN` only once it has waited `unknownJobWait` in all, so it
 * is never lost silently. Each put-back is a line in the job's log (the dashboard shows them); the
 * number of lines is how many times it was put back, kept in Redis with the job.
 */

/** The longest single wait of an unknown job before a worker looks at it again. */
export const UNKNOWN_JOB_MAX_STEP_MS = 30_000;

/** The waits of the first `deferrals` put-backs, bounded in all by `waitMs`. */
function waits(deferrals: number, waitMs: number): number[] {
  const out: number[] = [];
  let total = 0;
  for (let n = 1; n <= deferrals && total < waitMs; n++) {
    const step = Math.min(1000 * 2 ** Math.min(n - 1, 30), UNKNOWN_JOB_MAX_STEP_MS, waitMs - total);
    out.push(step);
    total += step;
  }
  return out;
}

/**
 * How long to put an unknown job back for, its `deferral`th time (from 1), or undefined once it
 * has waited `waitMs` in all: then it fails.
 */
export function unknownJobDelay(deferral: number, waitMs: number): number | undefined {
  const before = waits(deferral - 1, waitMs);
  const waited = before.reduce((sum, step) => sum + step, 0);
  if (before.length < deferral - 1 || waited >= waitMs) return undefined;
  return waits(deferral, waitMs)[deferral - 1];
}

/** What the job commands print: failed jobs and schedules, as lines or JSON. */
import type { FailedJob, ScheduledRun } from "@fwkit/jobs";

const oneLine = (text: string, max = 160) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** The failed jobs, one per line (`ref  name  attempts  when  error`), or JSON. */
export function printFailed(failed: readonly FailedJob[], json: boolean, retry: string): void {
  if (json) {
    console.log(
      JSON.stringify(
        failed.map(({ stack: _stack, ...job }) => job),
        null,
        2,
      ),
    );
    return;
  }
  if (failed.length === 0) {
    console.log("No failed jobs.");
    return;
  }
  for (const job of failed) {
    console.log(
      `${job.ref}  ${job.name}  after ${job.attemptsMade} attempt(s)  ${job.failedAt?.toISOString() ?? "-"}  ${oneLine(job.error)}`,
    );
  }
  console.log(`\n${failed.length} failed job(s). Run one again: ${retry} <id>; all of them: ${retry} --all`);
}

/** The schedules and their next runs, one per line, or JSON. */
export function printSchedules(schedules: readonly ScheduledRun[], json: boolean): void {
  if (json) {
    console.log(JSON.stringify(schedules, null, 2));
    return;
  }
  if (schedules.length === 0) {
    console.log("No scheduled jobs.");
    return;
  }
  for (const run of schedules) {
    const when =
      run.cron !== undefined
        ? `cron "${run.cron}"${run.tz ? ` (${run.tz})` : " (UTC)"}`
        : `every ${Math.round((run.every ?? 0) / 1000)} s`;
    console.log(`${run.job}  ${run.queue}  ${when}  next ${run.next?.toISOString() ?? "-"}`);
  }
}

/**
 * Every failed attempt of a job is reported on the host's telemetry (`fwkit:jobs.failed`), which
 * the observability battery counts as `job_failures_total`; nothing is built when nobody listens.
 */
import { report, telemetry } from "@fwkit/battery-kit";
import type { JobEventMap } from "./events.js";

/** Reports one failed attempt (what every queue does with its `failed` events). */
export function reportJobFailure(event: JobEventMap["failed"]): void {
  const { name, queue, attempt, final } = event;
  report(telemetry.jobFailed, () => ({ queue, name, attempt, final }));
}

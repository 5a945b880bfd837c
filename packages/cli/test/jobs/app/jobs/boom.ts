// Jobs of the job commands' tests: one that always fails, one on a schedule.
import { Job } from "@fwkit/jobs";

/** Fails every time, once (no retries). */
export class Boom extends Job<{ n?: number }> {
  static override options = { attempts: 1 };
  handle(): void {
    throw new Error("boom!");
  }
}

/** Runs every minute. */
export class Tick extends Job {
  static override options = { schedule: { every: "60s" } };
  handle(): void {}
}

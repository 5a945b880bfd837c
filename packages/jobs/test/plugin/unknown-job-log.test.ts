// Each time a worker of the process leaves a job it does not know for another worker, the app's
// log says so (a warning naming the job, its id and when it is looked at again).
import assert from "node:assert/strict";
import { test } from "node:test";
import { createJobQueue } from "../../src/index.js";
import { logUnknownJobs } from "../../src/plugin/unknown-job-log.js";

test("a job left for another worker is a warning naming it, its id and the next look", async () => {
  const lines: Array<{ fields: Record<string, unknown>; msg: string }> = [];
  const logger = { warn: (fields: Record<string, unknown>, msg: string) => void lines.push({ fields, msg }) };
  const queue = await createJobQueue({ url: "memory:", bind: false });
  const stop = logUnknownJobs(queue, logger as never);
  try {
    queue.events.emit("deferred", { name: "ExportReport", queue: "default", id: "17", deferrals: 2, delayMs: 2000 });
    stop();
    queue.events.emit("deferred", { name: "Other", queue: "default", id: "18", deferrals: 1, delayMs: 1000 });
    assert.equal(lines.length, 1);
    assert.match(
      lines[0]!.msg,
      /^job ExportReport \(default:17\) is not a job of this worker .*left for a worker that knows it, looked at again in 2000 ms \(time 2\)/,
    );
    assert.deepEqual(lines[0]!.fields, {
      job: "ExportReport",
      queue: "default",
      id: "17",
      deferrals: 2,
      delayMs: 2000,
      code: "E_JOB_UNKNOWN",
    });
  } finally {
    await queue.close();
  }
});

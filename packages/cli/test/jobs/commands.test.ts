// The job commands on a real BullMQ queue (Redis on 127.0.0.1:6379, keys under a prefix of this
// run): flags refused with coded errors, dispatch by name, failed jobs listed, retried and cleared,
// schedules listed; a memory: queue refused, since another process cannot reach it (but its
// schedules are listed: they are the app's own).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { createJobQueue } from "@fwkit/jobs";
import { finishCli, frameworkCli } from "../../src/commands.js";
import { jobsCommands } from "../../src/jobs/commands.js";
import { Boom, Tick } from "./app/jobs/boom.js";

const root = fileURLToPath(new URL("./app/", import.meta.url));
const prefix = `cli-jobs-${process.pid}`;
const url = `redis://127.0.0.1:6379/0?prefix=${prefix}`;
const NAMES = {
  work: "jobs:work",
  failed: "jobs:failed",
  retry: "jobs:retry",
  clear: "jobs:clear",
  schedule: "jobs:schedule",
  dispatch: "jobs:dispatch",
};

/** Runs one command line of a CLI with the job commands; answers what it printed, or its error's code. */
async function run(...argv: string[]): Promise<{ output: string; code?: string; message?: string }> {
  let cli = frameworkCli("fw-x", [...argv, "--root", root]);
  for (const command of jobsCommands(NAMES)) cli = cli.command(command);
  const lines: string[] = [];
  const log = console.log;
  console.log = (...parts: unknown[]) => void lines.push(parts.map(String).join(" "));
  try {
    await finishCli(cli, "fw-x").parseAsync();
    return { output: lines.join("\n") };
  } catch (error) {
    return {
      output: lines.join("\n"),
      code: (error as { code?: string }).code ?? "",
      message: (error as Error).message,
    };
  } finally {
    console.log = log;
  }
}

/** Works the queue in this process until `done` holds. */
async function workUntil(done: () => Promise<boolean>): Promise<void> {
  const queue = await createJobQueue({ url, jobs: [Boom, Tick], bind: false });
  const worker = await queue.work();
  // Only ends a hang: the loop stops as soon as `done` holds, however busy the machine.
  const deadline = Date.now() + 60_000;
  while (!(await done()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  await worker.close(1000);
  await queue.close();
}

describe("job commands", () => {
  process.env["JOBS_CLI_QUEUE_URL"] = url;
  after(() => {
    spawnSync("sh", ["-c", `redis-cli -n 0 --scan --pattern '${prefix}:*' | xargs -r redis-cli -n 0 del`]);
  });

  test("flags are checked before the app is built, each a coded error naming the flag", async () => {
    assert.equal((await run("jobs:work", "--concurrency", "0")).code, "E_COMMAND_OPTION");
    assert.match((await run("jobs:work", "--grace", "-1")).message ?? "", /--grace/);
    assert.match((await run("jobs:retry")).message ?? "", /id or --all/);
    assert.match((await run("jobs:retry", "1", "--all")).message ?? "", /id or --all/);
    assert.match((await run("jobs:dispatch", "Boom", "--payload", "{nope")).message ?? "", /--payload must be JSON/);
    assert.equal((await run("jobs:failed", "--limit", "0")).code, "E_COMMAND_OPTION");
  });

  test("an unknown job or queue name is E_JOB_UNKNOWN listing the known ones; a bad payload E_JOB_PAYLOAD_INVALID", async () => {
    const job = await run("jobs:dispatch", "Bom");
    assert.equal(job.code, "E_JOB_UNKNOWN");
    assert.match(job.message ?? "", /Boom/);
    const queue = await run("jobs:failed", "--queue", "mial");
    assert.equal(queue.code, "E_JOB_UNKNOWN");
    assert.match(queue.message ?? "", /queue default/);
  });

  test("dispatch, failed, retry --all, clear and schedule act on the Redis queue", async () => {
    assert.match(
      (await run("jobs:dispatch", "Boom", "--payload", '{"n":1}')).output,
      /^Dispatched Boom to the queue default \(id \S+\)$/,
    );
    const failedCount = async () => /^default:\S+ {2}Boom/m.test((await run("jobs:failed")).output);
    await workUntil(failedCount);
    const listed = await run("jobs:failed");
    assert.match(listed.output, /^default:(\S+) {2}Boom {2}after 1 attempt\(s\) {2}\S+ {2}boom!$/m);
    assert.match(listed.output, /jobs:retry <id>; all of them: jobs:retry --all/);
    const [failed] = JSON.parse((await run("jobs:failed", "--json")).output) as Array<{
      ref: string;
      payload: unknown;
      error: string;
    }>;
    assert.deepEqual([failed!.payload, failed!.error], [{ n: 1 }, "boom!"]);
    assert.equal((await run("jobs:retry", "--all")).output, "Queued 1 failed job(s) again");
    assert.equal((await run("jobs:failed")).output, "No failed jobs.");
    await workUntil(failedCount);
    assert.equal((await run("jobs:retry", failed!.ref)).output, `Queued ${failed!.ref} again`);
    await workUntil(failedCount);
    assert.equal((await run("jobs:retry", "default:no-such-job")).code, "E_JOB_NOT_FOUND");
    assert.equal((await run("jobs:clear")).output, "Removed 1 failed job(s)");
    assert.match((await run("jobs:schedule")).output, /^Tick {2}default {2}every 60 s {2}next \d{4}-\d\d-\d\dT/m);
  });

  test("a memory: queue is refused: it lives inside the web process", async () => {
    process.env["JOBS_CLI_QUEUE_URL"] = "memory:";
    try {
      const refused = await run("jobs:failed");
      assert.equal(refused.code, "E_COMMAND_OPTION");
      assert.match(refused.message ?? "", /QUEUE_URL must be a redis:\/\/ URL/);
      // Listing the schedules needs no other process: they are the app's jobs' own.
      const schedules = await run("jobs:schedule");
      assert.equal(schedules.code, undefined, schedules.message);
      assert.match(schedules.output, /^Tick {2}default {2}every 60 s {2}next \d{4}-\d\d-\d\dT/m);
      assert.match(schedules.output, /memory: queue/);
    } finally {
      process.env["JOBS_CLI_QUEUE_URL"] = url;
    }
  });
});

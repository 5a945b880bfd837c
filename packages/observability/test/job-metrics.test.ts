// The jobs battery's metrics: durations by queue, job and outcome from a real in-memory queue,
// failed attempts (final or to be retried), and the queues' depths the jobs plugin reads while
// metrics are on.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { createJobQueue, defineJob } from "@fwkit/jobs";
import { z } from "zod";
import { startApp, TestView } from "./fixtures.js";

class Home extends TestView {
  index() {
    return {};
  }
}

// Each run waits at least this long, so its recorded duration has a floor the test can check
// without assuming how busy the machine is (no upper bound).
const WAIT_MS = 20;

const Greet = defineJob({
  name: "greet",
  schema: z.object({ fail: z.boolean() }),
  attempts: 2,
  backoff: { type: "fixed", delay: 1 },
  async handle({ fail }) {
    await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
    if (fail) throw new Error("no greeting today");
  },
});

test("jobs run on a queue are counted by queue, name and outcome, with their durations", async () => {
  const app = await startApp({ Home }, { metrics: { enabled: true, port: 0, host: "127.0.0.1" } });
  const queue = await createJobQueue({ url: "memory:", jobs: [Greet] });
  after(async () => {
    await queue.close();
    await app.host.close();
  });
  const worker = await queue.work({ concurrency: 2 });
  for (const fail of [false, false, true]) await queue.dispatch(Greet, { fail });
  const line = (outcome: string) =>
    new RegExp(
      `^job_duration_seconds_count\\{[^}]*queue="default",name="greet",outcome="${outcome}"[^}]*\\} (\\d+)$`,
      "m",
    );
  let text = "";
  // Waits for the runs to be counted, not for a time they should take: the deadline only ends a
  // hang, and a busy machine stays well inside it.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    text = await (await fetch(`${app.metricsUrl}/metrics`)).text();
    if (line("ok").exec(text)?.[1] === "2" && line("error").exec(text)?.[1] === "2") break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.equal(
    line("ok").exec(text)?.[1],
    "2",
    text
      .split("\n")
      .filter((l) => l.startsWith("job_"))
      .join("\n"),
  );
  // The failing job's two attempts: each is a run with outcome error.
  assert.equal(line("error").exec(text)?.[1], "2");
  // A duration was recorded for each run: at least the wait each one does (timers may fire up to 1 ms early).
  const okSum = Number(/^job_duration_seconds_sum\{[^}]*outcome="ok"[^}]*\} (\S+)$/m.exec(text)?.[1]);
  assert.ok(okSum >= (2 * (WAIT_MS - 1)) / 1000, `the ok runs' durations add up to ${okSum} s`);
  const failures = (final: string) =>
    new RegExp(`^job_failures_total\\{[^}]*queue="default",name="greet",final="${final}"[^}]*\\} (\\d+)$`, "m").exec(
      text,
    )?.[1];
  assert.equal(failures("false"), "1", "the first attempt failed and is retried");
  assert.equal(failures("true"), "1", "the second failed for good");
  await worker.close(1000);
});

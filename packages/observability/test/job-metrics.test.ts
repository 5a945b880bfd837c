// The jobs battery's metrics: durations by queue, job and outcome from a real in-memory queue, and
// the queues' depths the jobs plugin reads while metrics are on.
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

const Greet = defineJob({
  name: "greet",
  schema: z.object({ fail: z.boolean() }),
  attempts: 1,
  async handle({ fail }) {
    await new Promise((resolve) => setTimeout(resolve, 20));
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
  for (let tries = 0; tries < 50; tries++) {
    text = await (await fetch(`${app.metricsUrl}/metrics`)).text();
    if (line("ok").exec(text)?.[1] === "2" && line("error").exec(text)?.[1] === "1") break;
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
  assert.equal(line("error").exec(text)?.[1], "1");
  assert.match(text, /^job_duration_seconds_sum\{[^}]*outcome="ok"[^}]*\} 0\.0[2-9]/m, "each ok run took about 20 ms");
  await worker.close(1000);
});

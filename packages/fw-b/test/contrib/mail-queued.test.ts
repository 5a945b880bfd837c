// With a Redis queue (QUEUE_URL=redis://...), contrib mails are jobs: the page answers at once while
// the mail server is down, the job is retried with backoff, and the mail arrives once the server
// is back. Without one they are sent in the request (the other contrib tests).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { after, before, describe, test } from "node:test";
import { jobsOf } from "@fwkit/jobs";
import { freePort, httpClient, requireServer, startSmtp, type SmtpServer } from "@fwkit/test-servers";
import { createUser, linkIn, startContribApp, type ContribApp } from "./fixture.js";

const prefix = `fwb-mailq-${process.pid}`;

describe("contrib mails as jobs on a Redis queue", () => {
  let app: ContribApp;
  let smtp: SmtpServer | undefined;
  let port: number;
  before(async () => {
    const redis = await requireServer("redis");
    port = await freePort();
    app = await startContribApp({
      contrib: { auth: true },
      // Nothing listens on the mail port yet: the mail server is down. One in-process worker runs the jobs.
      config: {
        mailUrl: `smtp://127.0.0.1:${port}`,
        queueUrl: `redis://${new URL(redis).host}/0?prefix=${prefix}`,
        jobs: { fake: false, workers: 1 },
      },
    });
  });
  after(async () => {
    await app?.close();
    await smtp?.close();
    spawnSync("sh", ["-c", `redis-cli -n 0 --scan --pattern '${prefix}:*' | xargs -r redis-cli -n 0 del`]);
  });

  test("the reset page answers while SMTP is down; the mail job is retried and delivered when SMTP comes back", async () => {
    const jobs = jobsOf(app.host)!;
    assert.equal(jobs.kind, "bullmq");
    const failures: number[] = [];
    jobs.queue!.events.on("failed", (event) => void failures.push(event.attempt));
    await createUser(app, { username: "queued", password: "queued-pass-1" });
    const browser = httpClient(app.url);
    const token = await browser.csrfToken("/lost-password");
    const res = await browser.form("/lost-password", { _csrf_token: token, email: "queued@example.test" });
    // The page answered while no mail server listens, and the mail is a job that fails below:
    // it was queued, not sent (and waited for) by the request.
    assert.equal(res.status, 303);
    // Two attempts fail against the closed port (backoff 2 s, then 4 s).
    // The loop stops at the second failure; the deadline only ends a hang on a busy machine.
    const deadline = Date.now() + 60_000;
    while (failures.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(failures.length >= 2, `attempts failed while SMTP was down: ${failures.length}`);
    smtp = await startSmtp({ port });
    const mail = await smtp.waitForMail();
    assert.deepEqual(mail.to, ["queued@example.test"]);
    assert.match(linkIn(mail.parsed.text ?? "", "/reset-password/"), /\/reset-password\//);
  });
});

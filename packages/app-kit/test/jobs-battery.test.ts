// The jobs battery as every framework of the kit gets it: the app's jobs/ found, the test client's
// fake (`client.jobs`), signal receivers connected with { queued: true } handed to the queue, and
// the kit's mail job delivering a composed mail through the app's mailer.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { HostView } from "@fwkit/koa-host/plugin";
import { signal } from "@fwkit/services";
import { startSmtp, type SmtpServer } from "@fwkit/test-servers";
import { defineConventions, type ViewModule } from "routing-kernel";
import { jobsOf } from "@fwkit/jobs";
import { DeliverMail, DeliverSignal, defineFramework } from "../src/index.js";
import { frameworkTestClient } from "../src/testing/index.js";
import { NotifyExport } from "./fixtures/jobs-app/jobs/notify.js";
import { RecordText, texts } from "./fixtures/jobs-app/jobs/record.js";

const root = fileURLToPath(new URL("./fixtures/jobs-app/", import.meta.url));
class View extends HostView {}
const framework = defineFramework({
  name: "kit-test",
  conventions: defineConventions({ baseClass: View, trailingSlash: false }),
  responder: () => ({
    prepare: () => (ctx, result) => void (ctx.body = result ?? ""),
    renderError: (ctx, info) => void (ctx.status = info.status),
    describe: () => "text",
  }),
  mailRenderer: () => async (template, context) =>
    template.endsWith(".subject.txt")
      ? `Hello ${String(context["name"])}`
      : template.endsWith(".txt")
        ? `Mail ${template} for ${String(context["name"])}`
        : undefined,
});
const testClient = frameworkTestClient(framework);

const received: string[] = [];
signal<{ text: string }>("kit.audit").connect(
  function audit(payload) {
    received.push(payload.text);
  },
  { queued: true },
);

class Signup extends View {
  async index(text: string) {
    await RecordText.dispatch({ text });
    await signal<{ text: string }>("kit.audit").send({ text });
    return "queued";
  }
}
const modules: ViewModule[] = [{ name: "signup", exports: { Signup } }];

describe("jobs battery", () => {
  let smtp: SmtpServer;
  before(async () => {
    smtp = await startSmtp();
  });
  after(async () => {
    await smtp.close();
  });

  test("client.jobs records what a request dispatched (the app's jobs and queued signal receivers); runAll runs them", async () => {
    const client = await testClient({ root, modules, config: { batteries: { data: false } } });
    try {
      assert.equal((await client.get("/signup/ada")).status, 200);
      assert.deepEqual(
        client.jobs.dispatched(RecordText).map((job) => job.payload),
        [{ text: "ada" }],
      );
      assert.deepEqual(
        client.jobs.dispatched(DeliverSignal).map((job) => job.payload),
        [{ signal: "kit.audit", receiver: "audit", payload: { text: "ada" } }],
      );
      assert.deepEqual(received, [], "the queued receiver waits for a worker");
      assert.equal(await client.jobs.runAll(), 2);
      assert.ok(texts.includes("ada"));
      assert.deepEqual(received, ["ada"]);
    } finally {
      await client.close();
    }
  });

  test("a job mails through context.services, typed, with no template; the test client's fake runs it", async () => {
    const client = await testClient({
      root,
      modules,
      config: { batteries: { data: false }, mailUrl: smtp.url, mailFrom: "shop@example.test" },
    });
    try {
      await NotifyExport.dispatch({ to: "ada@example.test", file: "export.csv" });
      assert.equal(await client.jobs.runAll(), 1);
      const mail = await smtp.waitForMail();
      assert.equal(mail.parsed.subject, "Your export is ready");
      assert.equal(mail.parsed.text?.trim(), "Download export.csv.");
    } finally {
      await client.close();
    }
  });

  test("the kit's mail job delivers a mail composed in the request through the app's mailer", async () => {
    const client = await testClient({
      root,
      modules,
      config: {
        batteries: { data: false },
        queueUrl: "sync:",
        jobs: { fake: false },
        mailUrl: smtp.url,
        mailFrom: "shop@example.test",
      },
    });
    try {
      const jobs = jobsOf(client.host)!;
      assert.equal(jobs.kind, "sync");
      assert.throws(
        () => client.jobs,
        (error: Error & { code?: string }) => error.code === "E_JOB_OPTION_INVALID" && /jobs\.fake/.test(error.message),
      );
      const services = (
        client.host.koa.context as unknown as {
          runtime: {
            plugins: Array<{ name: string; services?: { mailer: { compose(o: object): Promise<unknown> } } }>;
          };
        }
      ).runtime.plugins.find((p) => p.name === "services")!.services!;
      const composed = await services.mailer.compose({
        to: "ada@example.test",
        template: "welcome",
        context: { name: "Ada" },
      });
      await DeliverMail.dispatch(JSON.parse(JSON.stringify(composed)));
      const mail = await smtp.waitForMail();
      assert.equal(mail.parsed.subject, "Hello Ada");
      assert.equal(mail.parsed.text?.trim(), "Mail mail/welcome.txt for Ada");
    } finally {
      await client.close();
    }
  });
});

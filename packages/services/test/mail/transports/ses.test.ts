/**
 * Amazon SES for real: the SES transport (nodemailer's SES transport on the AWS SDK's SESv2
 * client) sends to aws-ses-v2-local, a local SES v2 API on 127.0.0.1, and the mail is read back
 * from that server's store.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { freePort, startSes, type SesServer } from "@fwkit/test-servers";
import { createMailer, type MailSendError } from "../../../src/mail/mailer.js";
import type { MailRenderer } from "../../../src/mail/templates.js";

const templates: Record<string, string> = {
  "mail/welcome.subject.txt": "Welcome, {{ name }}!",
  "mail/welcome.txt": "Hello {{ name }},\nconfirm at https://shop.example.test/confirm?t=abc\n",
  "mail/welcome.html": '<p>Hello <b>{{ name }}</b>, <a href="https://shop.example.test/confirm?t=abc">confirm</a></p>',
};
/** A stand-in for the framework's renderer (rendering is tested with the mailer; this file tests delivery). */
const render: MailRenderer = async (template, context) =>
  templates[template]?.replace(/\{\{\s*(\w+)\s*\}\}/g, (_m, key: string) => String(context[key] ?? ""));
const quiet = { error: () => {}, warn: () => {} };
const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");

describe("ses:// against aws-ses-v2-local", () => {
  let ses: SesServer;
  before(async () => {
    ses = await startSes();
  });
  after(async () => {
    await ses.close();
  });
  const url = () => `ses://AKIDLOCAL:local%2Fsecret@us-east-1?endpoint=${encodeURIComponent(ses.endpoint)}`;

  test("sends subject, text, HTML and attachments through the SES v2 API", async () => {
    const mailer = createMailer({ url: url(), from: "Shop <shop@example.test>", render, logger: quiet });
    try {
      const info = await mailer.sendMail({
        to: "ann@example.test",
        cc: "bob@example.test",
        template: "welcome",
        context: { name: "Ann" },
        attachments: [
          { filename: "notes.txt", content: "plain notes\n", contentType: "text/plain" },
          { filename: "pixel.png", content: png, contentType: "image/png" },
        ],
      });
      assert.match(info.messageId, /\S/);
      const mails = await ses.mails();
      assert.equal(mails.length, 1);
      const [mail] = mails;
      assert.match(mail!.from, /shop@example\.test/);
      assert.deepEqual(
        mail!.destination.to.map((to) => to.replace(/^.*<|>$/g, "")),
        ["ann@example.test"],
      );
      assert.deepEqual(
        mail!.destination.cc.map((cc) => cc.replace(/^.*<|>$/g, "")),
        ["bob@example.test"],
      );
      assert.equal(mail!.subject, "Welcome, Ann!");
      assert.equal(mail!.body.text?.trim(), "Hello Ann,\nconfirm at https://shop.example.test/confirm?t=abc");
      assert.match(
        mail!.body.html ?? "",
        /<b>Ann<\/b>, <a href="https:\/\/shop\.example\.test\/confirm\?t=abc">confirm<\/a>/,
      );
      assert.deepEqual(
        mail!.attachments.map((a) => ({
          name: a.filename,
          type: a.contentType,
          body: Buffer.from(a.content, "base64"),
        })),
        [
          { name: "notes.txt", type: "text/plain", body: Buffer.from("plain notes\n") },
          { name: "pixel.png", type: "image/png", body: png },
        ],
      );
    } finally {
      mailer.close();
    }
  });

  test("a send SES refuses rejects with E_MAIL_SEND_FAILED carrying SES's reason", async () => {
    const mailer = createMailer({ url: url(), from: "Shop <shop@example.test>", render, logger: quiet });
    try {
      const before = (await ses.mails()).length;
      // A message without a From address: SES answers 400 BadRequestException.
      await assert.rejects(
        mailer.sendMail({ to: "ann@example.test", from: "", template: "welcome", context: { name: "Ann" } }),
        (error: MailSendError) => {
          assert.equal(error.code, "E_MAIL_SEND_FAILED");
          // Real SES names its error (BadRequestException); the emulator answers a bare 400.
          assert.match(error.reason, /^(BadRequestException|SES_HTTP_400)$/);
          assert.match(error.message, /SES answered 400/);
          assert.match(error.message, /ann@example\.test/);
          return true;
        },
      );
      assert.equal((await ses.mails()).length, before, "nothing was stored");
    } finally {
      mailer.close();
    }
  });

  test("an SES endpoint that does not answer rejects with E_MAIL_SEND_FAILED, the secret key in no message", async () => {
    const port = await freePort();
    const mailer = createMailer({
      url: `ses://AKIDLOCAL:local%2Fsecret@us-east-1?endpoint=${encodeURIComponent(`http://127.0.0.1:${port}`)}`,
      from: "shop@example.test",
      render,
      logger: quiet,
    });
    try {
      await assert.rejects(
        mailer.sendMail({ to: "ann@example.test", template: "welcome", context: { name: "Ann" } }),
        (error: MailSendError) => {
          assert.equal(error.code, "E_MAIL_SEND_FAILED");
          assert.doesNotMatch(error.message, /local\/secret|local%2Fsecret/);
          return true;
        },
      );
    } finally {
      mailer.close();
    }
  });
});

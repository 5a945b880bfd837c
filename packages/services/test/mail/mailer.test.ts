import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { startSmtp, type SmtpServer } from "@fwkit/test-servers";
import { SignalRegistry } from "../../src/signals/signal.js";
import type { MailSentPayload } from "../../src/signals/names.js";
import { createMailer, type MailSendError } from "../../src/mail/mailer.js";
import type { MailRenderer } from "../../src/mail/templates.js";

const templates = fileURLToPath(new URL("../fixtures/templates/", import.meta.url));

/** A stand-in for the framework's renderer: `{{ key }}` substitution, escaped in HTML, undefined when absent. */
const render: MailRenderer = async (template, context, part) => {
  let source: string;
  try {
    source = await readFile(templates + template, "utf8");
  } catch {
    return undefined;
  }
  const escapeValue = part.html
    ? (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    : (value: string) => value;
  return source.replace(/\{\{\s*(\w+)\s*\}\}/g, (_m, key: string) => escapeValue(String(context[key] ?? "")));
};

const quiet = { error: () => {}, warn: () => {} };
const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");

describe("mailer over a real SMTP server", () => {
  let smtp: SmtpServer;
  let rejecting: SmtpServer;
  before(async () => {
    smtp = await startSmtp();
    rejecting = await startSmtp({ reject: true });
  });
  after(async () => {
    await smtp.close();
    await rejecting.close();
  });

  test("delivers subject, text and HTML bodies and attachments, then sends mail.sent", async () => {
    const signals = new SignalRegistry(quiet);
    const sent: MailSentPayload[] = [];
    signals.get<MailSentPayload>("mail.sent").connect((payload) => {
      sent.push(payload);
    });
    const mailer = createMailer({ url: smtp.url, from: "Shop <shop@example.test>", render, signals });
    const info = await mailer.sendMail({
      to: "ann@example.test",
      template: "welcome",
      context: { name: "Ann <admin>" },
      attachments: [
        { filename: "notes.txt", content: "plain notes\n", contentType: "text/plain" },
        { filename: "pixel.png", content: png, contentType: "image/png" },
      ],
    });
    mailer.close();

    const mail = await smtp.waitForMail();
    assert.deepEqual(mail.to, ["ann@example.test"]);
    assert.equal(mail.from, "shop@example.test");
    assert.equal(mail.parsed.subject, "Welcome, Ann <admin>!");
    assert.equal(mail.parsed.text, "Hello Ann <admin>,\nyour account is ready.\n");
    assert.equal(mail.parsed.html, "<p>Hello <b>Ann &lt;admin&gt;</b>, your account is ready.</p>\n");
    const attachments = mail.parsed.attachments.map((a) => ({
      name: a.filename,
      type: a.contentType,
      body: a.content,
    }));
    assert.deepEqual(attachments, [
      { name: "notes.txt", type: "text/plain", body: Buffer.from("plain notes\n") },
      { name: "pixel.png", type: "image/png", body: png },
    ]);

    assert.deepEqual(info.accepted, ["ann@example.test"]);
    assert.match(info.response, /^250/);
    assert.equal(mail.parsed.messageId, info.messageId);
    assert.deepEqual(sent, [
      { to: ["ann@example.test"], subject: "Welcome, Ann <admin>!", template: "welcome", messageId: info.messageId },
    ]);
  });

  test("a text-only or HTML-only template is fine; a passed subject wins over the subject template", async () => {
    const mailer = createMailer({
      url: smtp.url,
      from: "shop@example.test",
      render,
      signals: new SignalRegistry(quiet),
    });
    await mailer.sendMail({ to: ["a@example.test", "b@example.test"], template: "receipt", context: { number: 42 } });
    const textOnly = await smtp.waitForMail();
    assert.equal(textOnly.parsed.subject, "Receipt 42");
    assert.equal(textOnly.parsed.text, "Receipt 42 (text only)\n");
    assert.equal(textOnly.parsed.html, false);
    assert.deepEqual(textOnly.to, ["a@example.test", "b@example.test"]);

    await mailer.sendMail({
      to: "c@example.test",
      subject: "Given\nsubject",
      template: "news",
      context: { name: "Cy" },
    });
    const htmlOnly = await smtp.waitForMail();
    assert.equal(htmlOnly.parsed.subject, "Given subject");
    assert.equal(htmlOnly.parsed.html, "<h1>News for Cy</h1>\n");

    await mailer.sendMail({ to: "d@example.test", subject: "Explicit", template: "nosubject" });
    assert.equal((await smtp.waitForMail()).parsed.subject, "Explicit");
    mailer.close();
  });

  test("a mail without a template sends the subject and text (or HTML) it is given", async () => {
    const signals = new SignalRegistry(quiet);
    const sent: MailSentPayload[] = [];
    signals.get<MailSentPayload>("mail.sent").connect((payload) => void sent.push(payload));
    const mailer = createMailer({ url: smtp.url, from: "shop@example.test", render, signals });
    await mailer.sendMail({
      to: "p@example.test",
      subject: "Your export\nis ready",
      text: "Download it from the app.\n",
    });
    const plain = await smtp.waitForMail();
    assert.equal(plain.parsed.subject, "Your export is ready");
    assert.equal(plain.parsed.text, "Download it from the app.\n");
    assert.equal(plain.parsed.html, false);
    assert.equal(sent[0]?.template, "inline", "mail.sent names no template file");
    await mailer.sendMail({ to: "q@example.test", subject: "Styled", html: "<p>Hi</p>" });
    assert.equal((await smtp.waitForMail()).parsed.html?.toString().trim(), "<p>Hi</p>");
    const composed = await mailer.compose({ to: "r@example.test", subject: "Later", text: "From a job." });
    assert.deepEqual(JSON.parse(JSON.stringify(composed)), composed, "a composed plain mail is JSON-safe");
    const before = smtp.messages.length;
    await assert.rejects(mailer.sendMail({ to: "x@example.test", subject: "Nothing" }), {
      code: "E_MAIL_BODY_MISSING",
      message: /give `text` or `html`, or a `template`/,
    });
    await assert.rejects(mailer.sendMail({ to: "x@example.test", text: "No subject" }), {
      code: "E_MAIL_BODY_MISSING",
      message: /subject/,
    });
    assert.equal(smtp.messages.length, before, "a refused mail is not sent");
    mailer.close();
  });

  test("compose renders a JSON-safe mail that deliver sends later (what a mail job carries), then mail.sent", async () => {
    const signals = new SignalRegistry(quiet);
    const sent: MailSentPayload[] = [];
    signals.get<MailSentPayload>("mail.sent").connect((payload) => void sent.push(payload));
    const mailer = createMailer({ url: smtp.url, from: "shop@example.test", render, signals });
    const composed = await mailer.compose({
      to: "e@example.test",
      replyTo: "r@example.test",
      template: "welcome",
      context: { name: "Eve" },
    });
    const copied = JSON.parse(JSON.stringify(composed)) as typeof composed;
    assert.deepEqual(copied, composed);
    assert.equal(composed.subject, "Welcome, Eve!");
    assert.deepEqual(sent, [], "nothing is sent by compose");
    const info = await mailer.deliver(copied);
    const mail = await smtp.waitForMail();
    assert.equal(mail.parsed.subject, "Welcome, Eve!");
    assert.equal(mail.parsed.text, "Hello Eve,\nyour account is ready.\n");
    assert.deepEqual(sent, [
      { to: ["e@example.test"], subject: "Welcome, Eve!", template: "welcome", messageId: info.messageId },
    ]);
    mailer.close();
  });

  test("a template without a body, without a subject, or with an unsafe name is refused before sending", async () => {
    const mailer = createMailer({
      url: smtp.url,
      from: "shop@example.test",
      render,
      signals: new SignalRegistry(quiet),
    });
    const before = smtp.messages.length;
    await assert.rejects(mailer.sendMail({ to: "x@example.test", template: "empty" }), {
      code: "E_MAIL_TEMPLATE_MISSING",
      message: /templates\/mail\/empty\.txt and templates\/mail\/empty\.html/,
    });
    await assert.rejects(mailer.sendMail({ to: "x@example.test", template: "nosubject" }), {
      code: "E_MAIL_SUBJECT_MISSING",
      message: /templates\/mail\/nosubject\.subject\.txt/,
    });
    await assert.rejects(mailer.sendMail({ to: "x@example.test", template: "../secrets" }), {
      code: "E_MAIL_TEMPLATE_INVALID",
    });
    mailer.close();
    assert.equal(smtp.messages.length, before);
  });

  test("a server that rejects the recipient gives the caller an error with the reason; no mail.sent", async () => {
    const signals = new SignalRegistry(quiet);
    let sent = 0;
    signals.get("mail.sent").connect(() => {
      sent++;
    });
    const mailer = createMailer({ url: rejecting.url, from: "shop@example.test", render, signals });
    const error = await mailer
      .sendMail({ to: "gone@example.test", template: "welcome", context: { name: "Gone" } })
      .then(
        () => assert.fail("sendMail resolved"),
        (e: MailSendError) => e,
      );
    mailer.close();
    assert.equal(error.code, "E_MAIL_SEND_FAILED");
    assert.equal(error.status, 502);
    assert.equal(error.reason, "EENVELOPE");
    assert.equal(error.responseCode, 550);
    assert.match(error.message, /gone@example\.test/);
    assert.match(error.message, /550/);
    assert.equal(sent, 0);
  });

  test("an unreachable server is an error with the connection reason", async () => {
    const mailer = createMailer({
      url: "smtp://127.0.0.1:1",
      from: "shop@example.test",
      render,
      signals: new SignalRegistry(quiet),
    });
    const error = await mailer.sendMail({ to: "a@example.test", template: "welcome", context: { name: "A" } }).then(
      () => assert.fail("sendMail resolved"),
      (e: MailSendError) => e,
    );
    assert.equal(error.code, "E_MAIL_SEND_FAILED");
    assert.match(error.reason, /^E[A-Z]+$/);
    assert.match(error.message, /ECONNREFUSED/);
  });

  test("an attachment that points at a URL is refused instead of fetched", async () => {
    const mailer = createMailer({
      url: smtp.url,
      from: "shop@example.test",
      render,
      signals: new SignalRegistry(quiet),
    });
    const before = smtp.messages.length;
    await assert.rejects(
      mailer.sendMail({
        to: "a@example.test",
        template: "welcome",
        context: { name: "A" },
        attachments: [{ filename: "x.txt", path: "http://127.0.0.1:1/x.txt" }],
      }),
      { code: "E_MAIL_SEND_FAILED" },
    );
    mailer.close();
    assert.equal(smtp.messages.length, before);
  });

  test("a mailer without a sender is a config error", () => {
    assert.throws(() => createMailer({ url: smtp.url, from: " ", render }), { code: "E_SERVICES_CONFIG_INVALID" });
  });
});

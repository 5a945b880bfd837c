// A mail's subject and text part are text; only the HTML part escapes values.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { AppConfig } from "@fwkit/koa-host";
import { createMailer } from "@fwkit/services";
import { startSmtp, type SmtpServer } from "@fwkit/test-servers";
import { nunjucksMailRenderer } from "../src/mail.js";

describe("fw-a mail templates over a real SMTP server", () => {
  let smtp: SmtpServer;
  let root: string;
  before(async () => {
    smtp = await startSmtp();
    root = mkdtempSync(join(tmpdir(), "fw-a-mail-"));
    mkdirSync(join(root, "templates", "mail"), { recursive: true });
    writeFileSync(join(root, "templates", "mail", "welcome.subject.txt"), "Welcome {{ name }}!\n");
    writeFileSync(join(root, "templates", "mail", "welcome.txt"), "Hello {{ name }} & friends, see {{ link }}\n");
    writeFileSync(join(root, "templates", "mail", "welcome.html"), "<p>Hello {{ name }}</p>\n");
  });
  after(async () => {
    await smtp.close();
    rmSync(root, { recursive: true, force: true });
  });

  test("subject and text part arrive unescaped, the HTML part escaped", async () => {
    const config = { root, env: "test" } as unknown as AppConfig;
    const mailer = createMailer({ url: smtp.url, from: "app@example.test", render: nunjucksMailRenderer(config) });
    await mailer.sendMail({
      to: "ann@example.test",
      template: "welcome",
      context: { name: "<Ann>", link: "http://127.0.0.1/?a=1&b=2" },
    });
    mailer.close();
    const mail = await smtp.waitForMail();
    assert.match(mail.raw, /^Subject: Welcome <Ann>!\r?$/m, "the raw Subject header is the text as written");
    assert.doesNotMatch(
      mail.raw,
      /&lt;Ann&gt;!|&lt;Ann&gt; &amp; friends|a=1&amp;b=2\r?\n/,
      "no HTML entity in the subject or text part",
    );
    assert.equal(mail.parsed.subject, "Welcome <Ann>!");
    assert.equal(mail.parsed.text?.trim(), "Hello <Ann> & friends, see http://127.0.0.1/?a=1&b=2");
    assert.equal(String(mail.parsed.html).trim(), "<p>Hello &lt;Ann&gt;</p>");
  });
});

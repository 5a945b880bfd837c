// A mail's subject and text part are text; only the HTML part escapes values.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { createMailer } from "@fwkit/services";
import { startSmtp, type SmtpServer } from "@fwkit/test-servers";
import { pugMailRenderer } from "../../src/render/mail.js";

describe("fw-b Pug mail renderer over a real SMTP server", () => {
  let smtp: SmtpServer;
  let root: string;
  before(async () => {
    smtp = await startSmtp();
    root = mkdtempSync(join(tmpdir(), "fw-b-mail-"));
    const mail = join(root, "templates", "mail");
    mkdirSync(mail, { recursive: true });
    writeFileSync(join(mail, "welcome.subject.txt"), "Welcome #{name}!\n");
    writeFileSync(join(mail, "welcome.txt"), "Hello #{name} & friends, see #{link}\nWrite &lt;b&gt; for bold.\n");
    writeFileSync(join(mail, "welcome.pug"), "p Hello #{name}\n");
  });
  after(async () => {
    await smtp.close();
    rmSync(root, { recursive: true, force: true });
  });

  test("subject and text part arrive as written, the HTML part escaped", async () => {
    const render = pugMailRenderer({
      appDir: join(root, "templates"),
      packageDir: join(root, "none"),
      development: false,
    });
    const mailer = createMailer({ url: smtp.url, from: "app@example.test", render });
    await mailer.sendMail({
      to: "ann@example.test",
      template: "welcome",
      context: { name: "<Ann>", link: "http://127.0.0.1/?a=1&b=2" },
    });
    mailer.close();
    const mail = await smtp.waitForMail();
    assert.match(mail.raw, /^Subject: Welcome <Ann>!\r?$/m, "the raw Subject header is the text as written");
    assert.equal(mail.parsed.subject, "Welcome <Ann>!");
    assert.equal(
      mail.parsed.text?.trim(),
      "Hello <Ann> & friends, see http://127.0.0.1/?a=1&b=2\nWrite &lt;b&gt; for bold.",
    );
    assert.equal(String(mail.parsed.html).trim(), "<p>Hello &lt;Ann&gt;</p>");
  });
});

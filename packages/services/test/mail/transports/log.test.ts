import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createMailTransport } from "../../../src/mail/create-transport.js";
import { createMailer } from "../../../src/mail/mailer.js";
import type { MailRenderer } from "../../../src/mail/templates.js";
import { LogTransport, mailLinks } from "../../../src/mail/transports/log.js";

describe("mailUrl log: (the development mail catcher)", () => {
  test("prints the mail with its headers, body, attachments and every link, and sends nothing", async () => {
    const printed: string[] = [];
    const transport = createMailTransport("log:", (text) => printed.push(text));
    assert.ok(transport instanceof LogTransport);
    const info = await transport.send({
      from: "Site <site@example.test>",
      to: ["ann@example.test"],
      subject: "Confirm your address",
      text: "Open http://127.0.0.1:3000/account/verify?token=abc.def to confirm.",
      html: '<a href="http://127.0.0.1:3000/account/verify?token=abc.def&amp;next=%2F">confirm</a> <a href="mailto:x@y">mail</a>',
      attachments: [{ filename: "terms.pdf", content: "pdf", contentType: "application/pdf" }],
    });
    assert.deepEqual(info.accepted, ["ann@example.test"]);
    const output = printed.join("");
    assert.match(output, /From: Site <site@example\.test>/);
    assert.match(output, /To: ann@example\.test/);
    assert.match(output, /Subject: Confirm your address/);
    assert.match(output, /Attachment: terms\.pdf \(application\/pdf\)/);
    assert.match(
      output,
      /Links:\n {2}http:\/\/127\.0\.0\.1:3000\/account\/verify\?token=abc\.def\n {2}http:\/\/127\.0\.0\.1:3000\/account\/verify\?token=abc\.def&next=%2F\n/,
    );
  });

  test("a mailer on log: renders and 'sends' like any other transport", async () => {
    const printed: string[] = [];
    const render: MailRenderer = async (template) =>
      template.endsWith(".txt") ? "Hi, see https://example.test/x" : undefined;
    const mailer = createMailer({
      url: new LogTransport(new URL("log:"), (text) => printed.push(text)),
      from: "a@example.test",
      render,
    });
    await mailer.sendMail({ to: "b@example.test", template: "hello", subject: "Hello" });
    assert.match(printed.join(""), /Subject: Hello[\s\S]*https:\/\/example\.test\/x/);
  });

  test("links: bare URLs of the text and http(s) or root-relative hrefs of the HTML, each once", () => {
    assert.deepEqual(
      mailLinks({
        text: "a https://x.test/1 b https://x.test/1",
        html: "<a href='/local'>l</a><a href=javascript:alert(1)>x</a>",
      }),
      ["https://x.test/1", "/local"],
    );
  });

  test("log: takes no path or options", () => {
    for (const url of ["log:somewhere", "log:?verbose=1"])
      assert.throws(() => createMailTransport(url), { code: "E_SERVICE_URL_INVALID" }, url);
  });
});

import assert from "node:assert/strict";
import { test } from "node:test";
import { mailPart, renderMail, type MailPart } from "../../src/mail/templates.js";

test("renderMail lets only the .html part autoescape (subject and text are text)", async () => {
  const asked: Array<[string, MailPart]> = [];
  await renderMail(
    (template, _context, part) => {
      asked.push([template, part]);
      return "x";
    },
    "welcome",
    {},
  );
  assert.deepEqual(asked.sort(), [
    ["mail/welcome.html", { html: true }],
    ["mail/welcome.subject.txt", { html: false }],
    ["mail/welcome.txt", { html: false }],
  ]);
  assert.equal(mailPart("mail/x.subject.txt").html, false);
  assert.equal(mailPart("mail/x.html").html, true);
});

// The test environment's mail transport: keeps every mail, oldest first, with its links, sends
// and prints nothing; takes no options; refused in production like the log: catcher.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readServicesConfig } from "../../../src/config.js";
import { createMailTransport } from "../../../src/mail/create-transport.js";
import { MemoryTransport } from "../../../src/mail/transports/memory.js";

test("memory: keeps the mails handed to it, oldest first, with their links, and clear() forgets them", async () => {
  const transport = createMailTransport("memory:");
  assert.ok(transport instanceof MemoryTransport);
  const info = await transport.send({
    from: "App <app@example.test>",
    to: ["ada@example.test"],
    bcc: ["audit@example.test"],
    subject: "Reset your password",
    text: "Open https://app.example.test/reset/abc to choose a new one.",
    html: '<a href="https://app.example.test/reset/abc">Reset</a>',
    attachments: [{ filename: "terms.txt", content: "..." }],
  });
  await transport.send({ from: "App <app@example.test>", to: ["bob@example.test"], subject: "Second", text: "hi" });
  assert.deepEqual(info.accepted, ["ada@example.test", "audit@example.test"]);
  const sent = transport.sent();
  assert.deepEqual(
    sent.map((mail) => [mail.to, mail.subject]),
    [
      [["ada@example.test"], "Reset your password"],
      [["bob@example.test"], "Second"],
    ],
  );
  assert.deepEqual(sent[0]!.links, ["https://app.example.test/reset/abc"]);
  assert.deepEqual(sent[0]!.bcc, ["audit@example.test"]);
  assert.deepEqual(sent[0]!.attachments, ["terms.txt"]);
  transport.clear();
  assert.deepEqual(transport.sent(), []);
});

test("memory: takes no path or options, and production refuses it", () => {
  assert.throws(() => createMailTransport("memory:inbox"), { code: "E_SERVICE_URL_INVALID" });
  assert.throws(() => readServicesConfig({ root: "/a", env: "production", mailUrl: "memory:" }), {
    code: "E_MAIL_LOG_IN_PRODUCTION",
    message: /MAIL_URL is memory:, the tests' mail transport/,
  });
  assert.equal(readServicesConfig({ root: "/a", env: "test", mailUrl: "memory:" }).mailUrl, "memory:");
});

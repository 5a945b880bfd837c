import assert from "node:assert/strict";
import { createServer, type AddressInfo } from "node:net";
import { test } from "node:test";
import { createTransport } from "nodemailer";
import { requireServer, serverUrls, startSmtp } from "../src/index.js";

test("requireServer names the server and how to start it when nothing listens", async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  const port = (blocker.address() as AddressInfo).port;
  await new Promise<void>((resolve) => blocker.close(() => resolve()));
  const original = process.env["TEST_REDIS_URL"];
  (serverUrls as { redis: string }).redis = `redis://127.0.0.1:${port}`;
  try {
    await assert.rejects(requireServer("redis"), (error: Error) => {
      assert.match(error.message, /redis is not reachable on 127\.0\.0\.1:\d+/);
      assert.match(error.message, /Start it with: redis-server/);
      return true;
    });
  } finally {
    (serverUrls as { redis: string }).redis = original ?? "redis://127.0.0.1:6379/0";
  }
});

test("startSmtp receives and parses a message; with reject it refuses recipients", async () => {
  const smtp = await startSmtp();
  const transport = createTransport({ host: "127.0.0.1", port: smtp.port, secure: false, ignoreTLS: true });
  await transport.sendMail({ from: "a@example.test", to: "b@example.test", subject: "Hi", text: "body" });
  const mail = await smtp.waitForMail();
  assert.equal(mail.parsed.subject, "Hi");
  assert.deepEqual(mail.to, ["b@example.test"]);
  await smtp.close();
  const refusing = await startSmtp({ reject: true });
  const other = createTransport({ host: "127.0.0.1", port: refusing.port, secure: false, ignoreTLS: true });
  await assert.rejects(
    other.sendMail({ from: "a@example.test", to: "b@example.test", subject: "x", text: "y" }),
    /550|unavailable/i,
  );
  await refusing.close();
});

test("startAzurite serves blobs on 127.0.0.1 with the development account, and stops", async () => {
  const { startAzurite } = await import("../src/index.js");
  const azurite = await startAzurite();
  try {
    assert.match(azurite.blobEndpoint, /^http:\/\/127\.0\.0\.1:\d+\/devstoreaccount1$/);
    const response = await fetch(`${azurite.blobEndpoint}?comp=list`);
    assert.equal(response.status, 403, "an unsigned listing is refused: the emulator checks credentials");
  } finally {
    await azurite.close();
  }
});

test("startSes accepts an SES v2 send and reports it on /store", async () => {
  const { startSes } = await import("../src/index.js");
  const ses = await startSes();
  try {
    const response = await fetch(`${ses.endpoint}/v2/email/outbound-emails`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: "AWS4-HMAC-SHA256 Credential=test/20260101/us-east-1/ses/aws4_request",
      },
      body: JSON.stringify({
        FromEmailAddress: "a@example.test",
        Destination: { ToAddresses: ["b@example.test"] },
        Content: { Simple: { Subject: { Data: "Hi" }, Body: { Text: { Data: "body" } } } },
      }),
    });
    assert.equal(response.status, 200);
    const [mail] = await ses.mails();
    assert.equal(mail?.subject, "Hi");
  } finally {
    await ses.close();
  }
});

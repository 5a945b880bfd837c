import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createMailTransport } from "../../src/mail/create-transport.js";
import { SesTransport } from "../../src/mail/transports/ses.js";
import { smtpOptions, SmtpTransport } from "../../src/mail/transports/smtp.js";

describe("mail transport from one URL", () => {
  test("smtp:// and smtps:// give SMTP with port defaults, decoded credentials and known flags", () => {
    assert.ok(createMailTransport("smtp://127.0.0.1:2525") instanceof SmtpTransport);
    const plain = smtpOptions(new URL("smtp://mail.example.test"));
    assert.equal(plain.port, 587);
    assert.equal(plain.secure, false);
    assert.equal(plain.auth, undefined);
    const secure = smtpOptions(
      new URL("smtps://user%40example.test:p%40ss%3Aword@mail.example.test?requireTLS=true&rejectUnauthorized=false"),
    );
    assert.equal(secure.port, 465);
    assert.equal(secure.secure, true);
    assert.deepEqual(secure.auth, { user: "user@example.test", pass: "p@ss:word" });
    assert.equal(secure.requireTLS, true);
    assert.deepEqual(secure.tls, { rejectUnauthorized: false });
  });

  test("ses://region builds nodemailer's SES transport around an SESv2 client in that region", async () => {
    const transport = createMailTransport("ses://eu-west-1");
    assert.ok(transport instanceof SesTransport);
    assert.equal(transport.kind, "ses");
    assert.equal(await transport.client.config.region(), "eu-west-1");
    assert.equal(
      (transport.transporter as unknown as { transporter: { name: string } }).transporter.name,
      "SESTransport",
    );
    transport.close();

    const withKeys = createMailTransport(
      "ses://AKIDEXAMPLE:secret%2Fkey@us-east-1?endpoint=http://127.0.0.1:4579",
    ) as SesTransport;
    const credentials = await withKeys.client.config.credentials();
    assert.equal(credentials.accessKeyId, "AKIDEXAMPLE");
    assert.equal(credentials.secretAccessKey, "secret/key");
    const endpoint = await withKeys.client.config.endpoint?.();
    assert.equal(endpoint?.hostname, "127.0.0.1");
    withKeys.close();
  });

  test("bad URLs are refused with E_SERVICE_URL_INVALID, passwords redacted", () => {
    for (const url of [
      "not a url",
      "http://mail.example.test",
      "ses://",
      "ses://nowhere",
      "smtp://h?pool=yes",
      "smtp://h?typo=true",
    ]) {
      assert.throws(() => createMailTransport(url), { code: "E_SERVICE_URL_INVALID" }, url);
    }
    assert.throws(
      () => createMailTransport("smtp://me:hunter2@h?bogus=1"),
      (error: Error) => {
        assert.doesNotMatch(error.message, /hunter2/);
        return true;
      },
    );
  });
});

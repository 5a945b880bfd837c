// A signup in an app's own test, as a new app's test writes it: the test environment keeps the
// confirmation mail in memory (no SMTP server, nothing sent, no "mail was not sent" error), and
// client.mail gives its link, which confirms the address.
import assert from "node:assert/strict";
import { test } from "node:test";
import { testClient } from "../../src/testing/index.js";

test("signup in the test environment: the confirmation mail is in client.mail and its link confirms the address", async () => {
  const client = await testClient({
    modules: [],
    config: { contrib: { auth: true }, autoMigrate: true, bcryptCost: 4, siteName: "Tea Shop" },
  });
  try {
    const res = await client.post("/signup", {
      form: {
        username: "ada",
        email: "ada@example.test",
        name: "Ada L",
        password: "first-pass-1",
        password_confirm: "first-pass-1",
      },
    });
    assert.equal(res.status, 303, res.text());
    const mail = client.mail.last("ada@example.test");
    assert.equal(mail.subject, "Confirm your email address for Tea Shop");
    const link = mail.links.find((href) => href.includes("/verify-email/"));
    assert.ok(link, mail.text);
    const confirmed = await client.get(new URL(link, "http://localhost").pathname);
    assert.equal(confirmed.status, 303, confirmed.text());
  } finally {
    await client.close();
  }
});

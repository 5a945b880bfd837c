import assert from "node:assert/strict";
import { test } from "node:test";
import { requireMailer } from "../../src/mail/required.js";

test("production without MAIL_URL or MAIL_FROM is E_MAIL_NOT_CONFIGURED naming them; development needs neither", () => {
  assert.throws(
    () => requireMailer({ env: "production", mailFrom: "shop@example.com" }, "contrib.auth"),
    (error: Error & { code?: string }) => {
      assert.equal(error.code, "E_MAIL_NOT_CONFIGURED");
      assert.match(error.message, /MAIL_URL \(mailUrl\) is not set/);
      assert.match(error.message, /contrib\.auth/);
      return true;
    },
  );
  assert.throws(
    () => requireMailer({ env: "production", mailUrl: "smtp://127.0.0.1:25" }, "contrib.contact"),
    /MAIL_FROM/,
  );
  requireMailer({ env: "production", mailUrl: "smtp://127.0.0.1:25", mailFrom: "shop@example.com" }, "contrib.auth");
  requireMailer({ env: "development" }, "contrib.auth");
});

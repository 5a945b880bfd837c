// A refused form is not a use of the limits that cap what a form sends: a newcomer who mistypes
// the password confirmation on /signup three times, or asks /lost-password with a malformed
// address, still signs up or gets the link with the next, correct form. The per-client limits
// count every post, refused or not, so guessing the captcha stays bounded.
import assert from "node:assert/strict";
import { test } from "node:test";
import { httpClient, csrfFrom } from "@fwkit/test-servers";
import { startContribApp, type ContribApp } from "./fixture.js";

async function post(app: ContribApp, page: string, fields: Record<string, string>): Promise<Response> {
  const browser = httpClient(app.url);
  const html = (await browser.page(page)).text;
  const extra: Record<string, string> = /name="captcha"/.test(html) ? { captcha: app.captcha.last } : {};
  return browser.form(page, { _csrf_token: csrfFrom(html), _back: page, ...extra, ...fields });
}

test("/signup refused three times for one address (the confirmation mistyped) still signs up the fourth time", async () => {
  const app = await startContribApp();
  try {
    const fields = { username: "newcomer", email: "newcomer@example.test", name: "New", password: "newcomer-pass-1" };
    for (let i = 0; i < 3; i++) {
      const refused = await post(app, "/signup", { ...fields, password_confirm: `typo-${i}-pass` });
      assert.equal(refused.status, 303);
      assert.equal(refused.headers.get("location"), "/signup", "back to the form with its errors");
    }
    const res = await post(app, "/signup", { ...fields, password_confirm: "newcomer-pass-1" });
    assert.equal(res.status, 303, "not 429: no sign-up was made for this address yet");
    assert.equal(res.headers.get("location"), "/login");
    assert.equal((await app.models.users.query().where({ email: "newcomer@example.test" })).length, 1);
  } finally {
    await app.close();
  }
});

// A redirect target holding CR or LF answered 500. Through contrib's login, `next=`
// with a raw line break is refused like any off-site target (the login redirects to the default
// page); percent-encoded it stays an escaped on-site path; the login page itself answers 200.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { httpClient, csrfFrom } from "@fwkit/test-servers";
import { createUser, startContribApp, type ContribApp } from "./fixture.js";

describe("contrib login: next= with CR/LF", () => {
  let app: ContribApp;
  before(async () => {
    app = await startContribApp();
    await createUser(app, { username: "nell", password: "nell-password-1" });
  });
  after(() => app.close());

  for (const next of ["/account\r\nSet-Cookie: evil=1", "/account%0d%0aSet-Cookie:%20evil=1", "/\nevil"]) {
    test(`next=${JSON.stringify(next)}: no 500, no injected header, the default target`, async () => {
      const browser = httpClient(app.url);
      const page = await browser.page(`/login?next=${encodeURIComponent(next)}`);
      assert.equal(page.status, 200);
      const extra: Record<string, string> = /name="captcha"/.test(page.text) ? { captcha: app.captcha.last } : {};
      const res = await browser.form(
        "/login",
        { _csrf_token: csrfFrom(page.text), ...extra, identifier: "nell", password: "nell-password-1", next },
        { referer: `${app.url}/login` },
      );
      assert.equal(res.status, 303);
      const location = res.headers.get("location") ?? "";
      assert.doesNotMatch(location, /[\r\n]/);
      // A raw line break makes the target unsafe: the default page. Escaped, it is an on-site path.
      assert.equal(location, /[\r\n]/.test(next) ? "/" : next);
      assert.ok(!res.headers.getSetCookie().some((line) => line.startsWith("evil=")));
    });
  }
});

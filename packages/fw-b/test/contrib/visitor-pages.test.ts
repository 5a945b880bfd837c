// The contrib pages as a visitor sees them: the maintenance banner meant for admins is
// not shown to anonymous visitors (on the login page, which stays open during maintenance); a
// wrong password says on the form that the credentials did not match, without the "fields marked
// below" summary when no field is marked; counts go through the translation layer's plural rules.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { setMaintenance } from "../../src/contrib/index.js";
import { httpClient, csrfFrom, type HttpClient } from "@fwkit/test-servers";
import { createUser, startContribApp, type ContribApp } from "./fixture.js";

const BANNER = /Maintenance is on: visitors see the maintenance page\./;

async function loginAs(app: ContribApp, username: string, password: string): Promise<HttpClient> {
  const browser = httpClient(app.url);
  const page = (await browser.page("/login")).text;
  const res = await browser.form("/login", { _csrf_token: csrfFrom(page), identifier: username, password });
  assert.equal(res.headers.get("location"), "/", `${username} logs in`);
  return browser;
}

describe("contrib pages as a visitor sees them", () => {
  let app: ContribApp;
  before(async () => {
    app = await startContribApp();
    await createUser(app, { username: "boss", password: "boss-password-1", role: "admin" });
    await createUser(app, { username: "member", password: "member-password-1" });
  });
  after(() => app.close());

  test("the maintenance banner is shown to admins only, never to an anonymous visitor or a member", async () => {
    const admin = await loginAs(app, "boss", "boss-password-1");
    const member = await loginAs(app, "member", "member-password-1");
    await setMaintenance(app.models.users.knex, true);
    try {
      const visitor = await httpClient(app.url).page("/login");
      assert.equal(visitor.status, 200, "the login page stays open");
      assert.doesNotMatch(visitor.text, BANNER, "an anonymous visitor sees no admin notice");
      assert.doesNotMatch((await member.page("/login")).text, BANNER, "nor does a member");
      assert.match((await admin.page("/")).text, BANNER, "an admin is told");
    } finally {
      await setMaintenance(app.models.users.knex, false);
    }
  });

  test("a wrong password says on the form that the credentials did not match, with no 'fields marked below'", async () => {
    const browser = httpClient(app.url);
    const form = (await browser.page("/login")).text;
    const res = await browser.form("/login", {
      _csrf_token: csrfFrom(form),
      identifier: "member",
      password: "not-the-password",
    });
    assert.equal(res.status, 303);
    const page = (await browser.page("/login")).text;
    assert.doesNotMatch(page, /Please correct the fields marked below/);
    const said = page.match(/Wrong username, email or password\./g) ?? [];
    assert.equal(said.length, 1, "said once");
    const card = page.indexOf('class="fwb-card"');
    const message = page.indexOf("Wrong username, email or password.");
    assert.ok(
      card >= 0 && message > card && message < page.indexOf('<form method="post" action="/login"'),
      "in the login card, above the form's fields",
    );
    assert.match(page, /name="identifier" type="text" value="member"/, "the identifier is kept");
  });

  test("a form with a field marked still gets the summary and the field's message", async () => {
    const browser = httpClient(app.url);
    const form = (await browser.page("/signup")).text;
    await browser.form("/signup", {
      _csrf_token: csrfFrom(form),
      captcha: app.captcha.last,
      username: "newbie",
      email: "newbie@example.test",
      name: "Newbie",
      password: "short",
      password_confirm: "short",
    });
    const page = (await browser.page("/signup")).text;
    assert.match(page, /Please correct the fields marked below\./);
    assert.match(page, /class="fwb-field has-error"/);
  });

  test("counts use the translation layer's plural rules: 1 user, 2 users, 0 users", async () => {
    const admin = await loginAs(app, "boss", "boss-password-1");
    const one = (await admin.page("/admin/users?q=boss")).text;
    assert.match(one, />\s*1 user\s*</);
    assert.doesNotMatch(one, /1 users/);
    assert.match((await admin.page("/admin/users?q=e")).text, /[2-9] users/);
    assert.match((await admin.page("/admin/users?q=nobody-at-all")).text, /0 users/);
  });
});

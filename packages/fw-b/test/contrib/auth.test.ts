// contrib.auth over HTTP: signup with the mailed confirmation link, login by username or email,
// account settings, logout, lost and reset password (single use, expiring), and answers that
// never tell whether an account exists.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { httpClient, csrfFrom, type HttpClient } from "@fwkit/test-servers";
import { createUser, linkIn, startContribApp, type ContribApp } from "./fixture.js";

async function postForm(
  browser: HttpClient,
  page: string,
  action: string,
  fields: Record<string, string>,
  app: ContribApp,
): Promise<Response> {
  const html = (await browser.page(page)).text;
  const extra: Record<string, string> = /name="captcha"/.test(html) ? { captcha: app.captcha.last } : {};
  return browser.form(action, { _csrf_token: csrfFrom(html), ...extra, ...fields }, { referer: `${app.url}${page}` });
}

describe("contrib.auth", () => {
  let app: ContribApp;
  before(async () => {
    app = await startContribApp();
  });
  after(() => app.close());

  test("signup mails a confirmation link; following it confirms the address; login by username and by email", async () => {
    const browser = httpClient(app.url);
    const res = await postForm(
      browser,
      "/signup",
      "/signup",
      {
        username: "Ada",
        email: "Ada@Example.test",
        name: "Ada L",
        password: "first-pass-1",
        password_confirm: "first-pass-1",
      },
      app,
    );
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), "/login");
    const login = await browser.page("/login");
    assert.match(login.text, /Check your mail: we sent a message to ada@example\.test/);
    const mail = await app.nextMail();
    assert.deepEqual(mail.to, ["ada@example.test"]);
    assert.equal(mail.parsed.subject, "Confirm your email address for Tea Shop");
    const user = await app.models.users.findBy({ username: "ada" });
    assert.ok(user, "stored with a lowercase username");
    assert.equal(user.email_verified_at, null);
    assert.match(user.password_hash ?? "", /^\$2b\$04\$/);
    const link = linkIn(mail.text, "/verify-email/");
    const verified = await browser.fetch(new URL(link).pathname);
    assert.equal(verified.status, 303);
    assert.ok((await app.models.users.find(user.id))!.email_verified_at, "confirmed");
    const again = await browser.fetch(new URL(link).pathname);
    assert.equal(again.status, 400, "a used link does not work twice");

    for (const identifier of ["ada", "ADA@example.test"]) {
      const other = httpClient(app.url);
      const logged = await postForm(other, "/login", "/login", { identifier, password: "first-pass-1" }, app);
      assert.equal(logged.status, 303, identifier);
      assert.equal(logged.headers.get("location"), "/");
      assert.match((await other.page("/account")).text, /Username: ada/);
    }
  });

  test("a wrong password, an unknown account and a deactivated one: no hint that an account exists", async () => {
    await createUser(app, { username: "bob", password: "bob-password-1" });
    await createUser(app, { username: "eve", password: "eve-password-1", active: false });
    const tries: Array<[string, string, RegExp]> = [
      ["bob", "wrong-password", /Wrong username, email or password\./],
      ["nobody", "whatever-1", /Wrong username, email or password\./],
      ["eve", "wrong-password", /Wrong username, email or password\./],
      ["eve", "eve-password-1", /This account is deactivated/],
    ];
    for (const [identifier, password, message] of tries) {
      const browser = httpClient(app.url);
      const res = await postForm(browser, "/login", "/login", { identifier, password }, app);
      assert.equal(res.status, 303);
      assert.equal(res.headers.get("location"), "/login");
      const page = await browser.page("/login");
      assert.match(page.text, message, identifier);
      assert.match(
        page.text,
        new RegExp(`name="identifier" type="text" value="${identifier}"`),
        "the identifier is kept",
      );
      assert.doesNotMatch(page.text, new RegExp(password), "the password is not kept");
      assert.equal((await browser.fetch("/account")).status, 302, "not logged in");
    }
  });

  test("the login page never logs a user out; next= is followed only on this site", async () => {
    await createUser(app, { username: "carl", password: "carl-password-1" });
    const browser = httpClient(app.url);
    const res = await postForm(
      browser,
      "/login?next=%2Faccount",
      "/login",
      { identifier: "carl", password: "carl-password-1", next: "/account" },
      app,
    );
    assert.equal(res.headers.get("location"), "/account");
    const page = await browser.page("/login");
    assert.match(page.text, /You are logged in as carl/);
    assert.equal((await browser.fetch("/account")).status, 200, "still logged in after seeing /login");
    const evil = httpClient(app.url);
    const away = await postForm(
      evil,
      "/login",
      "/login",
      { identifier: "carl", password: "carl-password-1", next: "//evil.example/x" },
      app,
    );
    assert.equal(away.headers.get("location"), "/");
  });

  test("account settings: name and language, email change after confirmation, password with the current one; logout", async () => {
    await createUser(app, { username: "dora", password: "dora-password-1", email: "dora@example.test" });
    const browser = httpClient(app.url);
    await postForm(browser, "/login", "/login", { identifier: "dora", password: "dora-password-1" }, app);
    const saved = await postForm(browser, "/account", "/account", { name: "Dora Explorer", locale: "en" }, app);
    assert.equal(saved.status, 303);
    assert.match((await browser.page("/account")).text, /Your profile is saved\./);
    const dora = await app.models.users.findBy({ username: "dora" });
    assert.equal(dora?.name, "Dora Explorer");
    assert.equal(dora?.locale, "en");

    const wrong = await postForm(
      browser,
      "/account/email",
      "/account/email",
      { email: "dora2@example.test", current_password: "nope-nope-1" },
      app,
    );
    assert.equal(wrong.status, 303);
    assert.match((await browser.page("/account/email")).text, /The current password is wrong\./);
    await postForm(
      browser,
      "/account/email",
      "/account/email",
      { email: "dora2@example.test", current_password: "dora-password-1" },
      app,
    );
    const mail = await app.nextMail();
    assert.deepEqual(mail.to, ["dora2@example.test"]);
    assert.equal((await app.models.users.find(dora!.id))?.email, "dora@example.test", "unchanged until confirmed");
    await browser.fetch(new URL(linkIn(mail.text, "/verify-email/")).pathname);
    assert.equal((await app.models.users.find(dora!.id))?.email, "dora2@example.test");

    const badCurrent = await postForm(
      browser,
      "/account/password",
      "/account/password",
      { current_password: "x", password: "new-password-2", password_confirm: "new-password-2" },
      app,
    );
    assert.equal(badCurrent.status, 303);
    assert.match((await browser.page("/account/password")).text, /The current password is wrong\./);
    await postForm(
      browser,
      "/account/password",
      "/account/password",
      { current_password: "dora-password-1", password: "new-password-2", password_confirm: "new-password-2" },
      app,
    );
    assert.match((await browser.page("/account")).text, /Your password is changed\./);

    const out = await postForm(browser, "/logout", "/logout", {}, app);
    assert.equal(out.status, 303);
    assert.equal((await browser.fetch("/account")).status, 302, "logged out");
    const old = await postForm(
      httpClient(app.url),
      "/login",
      "/login",
      { identifier: "dora", password: "dora-password-1" },
      app,
    );
    assert.equal(old.headers.get("location"), "/login", "the old password no longer works");
    const fresh = await postForm(
      httpClient(app.url),
      "/login",
      "/login",
      { identifier: "dora2@example.test", password: "new-password-2" },
      app,
    );
    assert.equal(fresh.headers.get("location"), "/");
  });

  test("lost password: the same answer for any address; the mailed link works once, and not after it expires", async () => {
    await createUser(app, { username: "fred", password: "fred-password-1" });
    const browser = httpClient(app.url);
    const unknown = await postForm(browser, "/lost-password", "/lost-password", { email: "nobody@example.test" }, app);
    assert.equal(unknown.status, 303);
    const unknownPage = (await browser.page("/lost-password")).text;
    assert.match(unknownPage, /If an account uses that address, a link to reset its password is on its way\./);
    await postForm(browser, "/lost-password", "/lost-password", { email: "fred@example.test" }, app);
    assert.match(
      (await browser.page("/lost-password")).text,
      /If an account uses that address, a link to reset its password is on its way\./,
    );
    const mail = await app.nextMail();
    assert.deepEqual(mail.to, ["fred@example.test"], "only the real account got a mail");
    assert.match(mail.text, /The link works once, for 60 minutes\./);
    const path = new URL(linkIn(mail.text, "/reset-password/")).pathname;
    assert.equal((await browser.page(path)).status, 200);
    const reset = await postForm(
      browser,
      path,
      path,
      { password: "fred-new-pass-2", password_confirm: "fred-new-pass-2" },
      app,
    );
    assert.equal(reset.status, 303);
    assert.equal((await browser.page(path)).status, 400, "used up");
    const replay = await browser.form(path, {
      _csrf_token: csrfFrom((await browser.page("/login")).text),
      password: "other-pass-3",
      password_confirm: "other-pass-3",
    });
    assert.equal(replay.status, 400);
    const logged = await postForm(
      httpClient(app.url),
      "/login",
      "/login",
      { identifier: "fred", password: "fred-new-pass-2" },
      app,
    );
    assert.equal(logged.headers.get("location"), "/");

    await postForm(browser, "/lost-password", "/lost-password", { email: "fred@example.test" }, app);
    const second = new URL(linkIn((await app.nextMail()).text, "/reset-password/")).pathname;
    await app.models.tokens
      .query()
      .where({ kind: "reset" })
      .whereNull("used_at")
      .update({ expires_at: new Date(Date.now() - 1000) } as never);
    assert.equal((await browser.page(second)).status, 400, "expired");
    assert.equal((await browser.page("/reset-password/not-a-token")).status, 400);
  });

  test("signing up with an address that has an account: the same answer, and a notice to its owner", async () => {
    await createUser(app, { username: "gina", password: "gina-password-1" });
    const browser = httpClient(app.url);
    const res = await postForm(
      browser,
      "/signup",
      "/signup",
      {
        username: "gina2",
        email: "gina@example.test",
        name: "G",
        password: "whatever-pass-1",
        password_confirm: "whatever-pass-1",
      },
      app,
    );
    assert.equal(res.headers.get("location"), "/login");
    assert.match((await browser.page("/login")).text, /Check your mail: we sent a message to gina@example\.test/);
    const mail = await app.nextMail();
    assert.match(mail.text, /an account already uses it/);
    assert.equal(await app.models.users.findBy({ username: "gina2" }), undefined, "no second account");
    const taken = await postForm(
      browser,
      "/signup",
      "/signup",
      {
        username: "gina",
        email: "new@example.test",
        name: "G",
        password: "whatever-pass-1",
        password_confirm: "whatever-pass-1",
      },
      app,
    );
    assert.equal(taken.status, 303);
    assert.match((await browser.page("/signup")).text, /This username is taken/);
  });

  test("requireVerification: an unconfirmed account cannot log in and gets a new link", async () => {
    const strict = await startContribApp({ contrib: { auth: { requireVerification: true } } });
    try {
      await createUser(strict, { username: "hal", password: "hal-password-1", email_verified_at: null });
      const browser = httpClient(strict.url);
      const res = await postForm(
        browser,
        "/login",
        "/login",
        { identifier: "hal", password: "hal-password-1" },
        strict,
      );
      assert.equal(res.headers.get("location"), "/login");
      assert.match((await browser.page("/login")).text, /Confirm your email address first/);
      const mail = await strict.nextMail();
      await browser.fetch(new URL(linkIn(mail.text, "/verify-email/")).pathname);
      const ok = await postForm(browser, "/login", "/login", { identifier: "hal", password: "hal-password-1" }, strict);
      assert.equal(ok.headers.get("location"), "/");
    } finally {
      await strict.close();
    }
  });
});

// contrib's limits over HTTP: the current password on the account pages is throttled per account
// like login (a stolen session cannot guess it), and the anonymous forms that mail or store
// (lost password, sign-up, contact) answer 429 with Retry-After per address typed and per client;
// a solved captcha kept in a signed cookie session cannot be replayed.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { httpClient, csrfFrom, type HttpClient } from "@fwkit/test-servers";
import { createUser, startContribApp, type ContribApp } from "./fixture.js";

async function postForm(
  browser: HttpClient,
  page: string,
  fields: Record<string, string>,
  app: ContribApp,
): Promise<Response> {
  const html = (await browser.page(page)).text;
  const extra: Record<string, string> = /name="captcha"/.test(html) ? { captcha: app.captcha.last } : {};
  return browser.form(page, { _csrf_token: csrfFrom(html), ...extra, ...fields }, { referer: `${app.url}${page}` });
}

async function loggedIn(app: ContribApp, identifier: string, password: string): Promise<HttpClient> {
  const browser = httpClient(app.url);
  const res = await postForm(browser, "/login", { identifier, password }, app);
  assert.equal(res.headers.get("location"), "/", "logged in");
  return browser;
}

function assertLimited(res: Response, text: string): void {
  assert.equal(res.status, 429, text.slice(0, 300));
  const retry = Number(res.headers.get("retry-after"));
  assert.ok(Number.isInteger(retry) && retry >= 1, `Retry-After in seconds: ${retry}`);
  assert.match(res.headers.get("content-type") ?? "", /html/, "the error page");
}

describe("contrib limits", () => {
  let app: ContribApp;
  before(async () => {
    app = await startContribApp({ config: { loginLimitAccount: 5, loginLimitAddress: 1000 } });
  });
  after(() => app.close());

  test("/account/password: 5 wrong current passwords, then even the right one is 429 (shared with /account/email and /login)", async () => {
    await createUser(app, { username: "guessed", password: "guessed-pass-1" });
    const thief = await loggedIn(app, "guessed", "guessed-pass-1");
    for (let i = 0; i < 4; i++) {
      const res = await postForm(
        thief,
        "/account/password",
        { current_password: `guess-${i}`, password: "taken-over-1", password_confirm: "taken-over-1" },
        app,
      );
      assert.equal(res.status, 303, `guess ${i} is answered with the form`);
    }
    const email = await postForm(
      thief,
      "/account/email",
      { email: "thief@example.test", current_password: "guess-email" },
      app,
    );
    assert.equal(email.status, 303, "the fifth guess, on the email page");
    const right = await postForm(
      thief,
      "/account/password",
      { current_password: "guessed-pass-1", password: "taken-over-1", password_confirm: "taken-over-1" },
      app,
    );
    assertLimited(right, await right.clone().text());
    assert.match(await right.text(), /Too many failed login attempts/);
    const user = await app.models.users.findBy({ username: "guessed" });
    assert.match(user?.password_hash ?? "", /^\$2b\$/);
    const login = await postForm(
      httpClient(app.url),
      "/login",
      { identifier: "guessed", password: "guessed-pass-1" },
      app,
    );
    assertLimited(login, "");
  });

  test("/lost-password: 3 requests per address typed, then 429 with Retry-After; other addresses still answer", async () => {
    await createUser(app, { username: "flooded", password: "flooded-pass-1" });
    const browser = httpClient(app.url);
    for (let i = 0; i < 3; i++)
      assert.equal((await postForm(browser, "/lost-password", { email: "flooded@example.test" }, app)).status, 303);
    const refused = await postForm(browser, "/lost-password", { email: " Flooded@Example.test " }, app);
    const text = await refused.text();
    assertLimited(refused, text);
    assert.match(text, /Too many reset requests for this address\./);
    assert.equal((await postForm(browser, "/lost-password", { email: "someone@example.test" }, app)).status, 303);
    for (let i = 0; i < 3; i++) await app.nextMail();
  });

  test("/lost-password: 10 requests per client whatever the addresses", async () => {
    const limited = await startContribApp();
    try {
      const browser = httpClient(limited.url);
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++)
        statuses.push((await postForm(browser, "/lost-password", { email: `spray${i}@example.test` }, limited)).status);
      assert.deepEqual(statuses, [...Array(10).fill(303), 429]);
    } finally {
      await limited.close();
    }
  });

  test("/signup: 3 per address typed (each taken address mails its owner a notice), then 429", async () => {
    const fresh = await startContribApp();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const fields = {
          username: `newcomer${i}`,
          email: "newcomer@example.test",
          name: "New",
          password: "newcomer-pass-1",
          password_confirm: "newcomer-pass-1",
        };
        statuses.push((await postForm(httpClient(fresh.url), "/signup", fields, fresh)).status);
      }
      assert.deepEqual(statuses, [303, 303, 303, 429]);
      assert.equal((await fresh.models.users.query().where({ email: "newcomer@example.test" })).length, 1);
    } finally {
      await fresh.close();
    }
  });

  test("a solved captcha cannot be replayed with the cookie session that held it, one after another or in parallel", async () => {
    const fresh = await startContribApp();
    try {
      const browser = httpClient(fresh.url);
      const page = (await browser.page("/contact")).text;
      const answer = fresh.captcha.last;
      const before = new Map(browser.cookies);
      const fields = {
        _csrf_token: csrfFrom(page),
        captcha: answer,
        name: "Ada",
        email: "ada@example.test",
        subject: "Replayed",
        message: "The same captcha, again and again.",
      };
      assert.equal((await browser.form("/contact", fields)).status, 303);
      const replays = await Promise.all(
        Array.from({ length: 3 }, () => {
          const replay = httpClient(fresh.url);
          for (const [name, value] of before) replay.cookies.set(name, value);
          return replay.form("/contact", fields);
        }),
      );
      assert.ok(
        replays.every((res) => res.status === 303),
        "each replay goes back to the form",
      );
      assert.equal(
        (await fresh.models.contactMessages.query().where({ subject: "Replayed" })).length,
        1,
        "one message stored, not four",
      );
    } finally {
      await fresh.close();
    }
  });

  test("/contact: 5 messages per client, then 429; nothing more is stored", async () => {
    const browser = httpClient(app.url);
    const message = { name: "Ada", email: "ada@example.test", subject: "Hello", message: "A long enough message." };
    for (let i = 0; i < 5; i++)
      assert.equal((await postForm(browser, "/contact", message, app)).status, 303, `message ${i}`);
    const refused = await postForm(browser, "/contact", message, app);
    assertLimited(refused, await refused.text());
    assert.equal((await app.models.contactMessages.query()).length, 5);
  });
});

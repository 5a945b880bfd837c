// CSRF and login-required through fw-b's defaults (security battery on, nothing configured).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { signal, SIGNALS } from "../../src/index.js";
import { httpClient, csrfFrom } from "@fwkit/test-servers";
import { startBatteryApp, type BatteryApp } from "./fixture.js";

describe("fw-b batteries: CSRF", () => {
  let app: BatteryApp;
  before(async () => {
    app = await startBatteryApp();
  });
  after(() => app.close());

  test("a form POST without a token is 403; with csrf_token() from the rendered page it is 200", async () => {
    const browser = httpClient(app.url);
    const refused = await browser.form("/forms/save", { note: "hi" });
    assert.equal(refused.status, 403);
    assert.match(await refused.text(), /CSRF token/);
    const page = await browser.page("/forms");
    assert.equal(page.status, 200);
    const token = csrfFrom(page.text);
    const wrong = await browser.form("/forms/save", { note: "hi", _csrf_token: "x".repeat(86) });
    assert.equal(wrong.status, 403);
    const ok = await browser.form("/forms/save", { note: "hi", _csrf_token: token });
    assert.equal(ok.status, 200);
    assert.equal(await ok.text(), "saved hi");
  });

  test("a JSON POST passes with the X-CSRF-Token header, and is refused without it", async () => {
    const browser = httpClient(app.url);
    const token = csrfFrom((await browser.page("/forms")).text);
    const send = (headers: Record<string, string>) =>
      browser.fetch("/api/echo", {
        method: "POST",
        body: JSON.stringify({ a: 1 }),
        headers: { "content-type": "application/json", ...headers },
      });
    const refused = await send({});
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { error: { status: number } }).error.status, 403);
    const ok = await send({ "x-csrf-token": token });
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), { body: { a: 1 } });
  });

  test("@csrfExempt lets a POST through without a token", async () => {
    const res = await fetch(`${app.url}/forms/hook`, { method: "POST" });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "hooked");
  });
});

describe("fw-b batteries: login required", () => {
  let app: BatteryApp;
  before(async () => {
    app = await startBatteryApp();
  });
  after(() => app.close());

  test("anonymous: an HTML view redirects to the login page with next=, a JSON view answers 401", async () => {
    const html = await fetch(`${app.url}/private`, { redirect: "manual" });
    assert.equal(html.status, 302);
    assert.equal(html.headers.get("location"), "/login?next=%2Fprivate");
    const json = await fetch(`${app.url}/private-api`);
    assert.equal(json.status, 401);
    assert.deepEqual(await json.json(), {
      error: { status: 401, message: "You must log in to use this resource (log in at /login)." },
    });
  });

  test("after login: the view runs with this.currentUser, templates see current_user and the flash", async () => {
    const browser = httpClient(app.url);
    const token = csrfFrom((await browser.page("/forms")).text);
    const loggedIn: Array<string | number> = [];
    const disconnect = signal(SIGNALS.userLoggedIn).connect(({ userId }) => void loggedIn.push(userId));
    const logged = await browser.form("/session/login", { _csrf_token: token });
    disconnect();
    assert.equal(logged.status, 302);
    assert.deepEqual(loggedIn, ["1"], "logging in sends user.logged_in");
    const page = await browser.page("/forms");
    assert.match(page.text, /<p class="user">Ada &lt;admin&gt;<\/p>/);
    assert.match(
      page.text,
      /<p class="flash success">Welcome back<\/p>/,
      "the flash of the login shows on the next page",
    );
    assert.doesNotMatch((await browser.page("/forms")).text, /Welcome back/, "and only once");
    assert.equal((await browser.page("/private")).text, "secret for Ada <admin>");
    const api = await browser.fetch("/private-api");
    assert.deepEqual(await api.json(), { user: { id: 1, name: "Ada <admin>" } });
  });

  test("Pug templates get the plugin locals: dates, pagination links (unescaped with !=), static()", async () => {
    const page = await httpClient(app.url).page("/forms");
    assert.match(page.text, /<p class="date">2024-05-01 12:00<\/p>/);
    assert.match(page.text, /<p class="ago">[^<]*ago<\/p>/);
    assert.match(
      page.text,
      /<div class="pages"><nav class="pagination" aria-label="Pagination"><a href="\/forms\?page=1" rel="prev">/,
    );
    assert.match(page.text, /<span aria-current="page">2<\/span>/);
    assert.match(page.text, /<p class="static">\/static\/site[.-][^<]*css<\/p>/);
  });
});

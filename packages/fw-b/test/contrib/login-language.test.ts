// The page after a login is in one language: the account's. A visitor who switched language
// before logging in (kept in the session) and whose account has its own language saw the welcome
// flash in the session's language on a page in the account's, because the flash was translated
// with the language decided before the login.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { httpClient, csrfFrom } from "@fwkit/test-servers";
import { createUser, startContribApp, type ContribApp } from "./fixture.js";

describe("the welcome flash after a login", () => {
  let app: ContribApp;
  before(async () => {
    app = await startContribApp();
    await createUser(app, { username: "amelie", password: "amelie-password-1", name: "Amélie", locale: "fr" });
  });
  after(() => app.close());

  test("is in the account's language, as the page it lands on is", async () => {
    const browser = httpClient(app.url);
    const switched = await browser.form("/language", {
      _csrf_token: csrfFrom((await browser.page("/login")).text),
      language: "de",
      next: "/login",
    });
    assert.equal(switched.status, 303);
    const login = (await browser.page("/login")).text;
    assert.match(login, /<html lang="de"/, "the visitor's switch to German is kept in the session");
    const res = await browser.form("/login", {
      _csrf_token: csrfFrom(login),
      identifier: "amelie",
      password: "amelie-password-1",
    });
    assert.equal(res.headers.get("location"), "/");
    const home = (await browser.page("/")).text;
    assert.match(home, /<html lang="fr"/, "the account's language wins once logged in");
    assert.match(home, /Bienvenue, Amélie !/);
    assert.doesNotMatch(home, /Willkommen/);
  });
});

// The admin area in the request's language: role names (the shipped roles translated, an app's
// own role shown as written) and dates written the language's way (Intl), not ISO in English.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { httpClient, csrfFrom, type HttpClient } from "@fwkit/test-servers";
import { createUser, startContribApp, type ContribApp } from "./fixture.js";

async function loginAs(app: ContribApp, username: string, password: string): Promise<HttpClient> {
  const browser = httpClient(app.url);
  const page = (await browser.page("/login")).text;
  const res = await browser.form("/login", { _csrf_token: csrfFrom(page), identifier: username, password });
  assert.equal(res.headers.get("location"), "/", `${username} logs in`);
  return browser;
}

describe("contrib.admin in German", () => {
  let app: ContribApp;
  let admin: HttpClient;
  let memberId = 0;
  before(async () => {
    app = await startContribApp();
    await createUser(app, { username: "chefin", password: "chefin-password-1", role: "admin", locale: "de" });
    memberId = Number((await createUser(app, { username: "mia", password: "mia-password-1" })).id);
    admin = await loginAs(app, "chefin", "chefin-password-1");
  });
  after(() => app.close());

  test("the user list and a user's page name roles and write dates in German", async () => {
    const list = (await admin.page("/admin/users")).text;
    assert.match(list, /<span class="fwb-badge">Administrator<\/span>/);
    assert.match(list, /<span class="fwb-badge">Mitglied<\/span>/);
    assert.doesNotMatch(list, /<span class="fwb-badge">member<\/span>/);
    const year = new Date().getUTCFullYear();
    assert.match(list, new RegExp(`<td>\\d{1,2}\\.\\d{2}\\.${year}</td>`), "a German medium date (27.11.2026)");
    const view = (await admin.page(`/admin/users/${memberId}`)).text;
    assert.match(view, /<td>Mitglied<\/td>/);
    assert.match(view, /<option value="editor"[^>]*>Redakteur<\/option>/);
    assert.match(view, new RegExp(`<td>\\d{1,2}\\.\\d{2}\\.${year}, \\d{2}:\\d{2}</td>`), "a German date and time");
  });
});

// The built-in error page speaks the request's language also for errors raised before the view
// is reached, by the batteries' own middleware: a form sent without its CSRF token, in
// French, Spanish and German. The translator is offered first, so every later failure can use it.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { createApp, type Host } from "../src/index.js";
import { listenForTest } from "../src/testing/index.js";

const root = fileURLToPath(new URL("./secure-app", import.meta.url));

describe("fw-a error pages raised by middleware, in the request's language", () => {
  let app: Host;
  let url = "";
  before(async () => {
    app = await createApp({
      root,
      auth: { loadUser: () => undefined },
      config: { env: "test", logRequests: false, dbUrl: "sqlite::memory:" },
    });
    url = (await listenForTest(app)).url;
  });
  after(() => app.close());

  const refusedForm = (acceptLanguage?: string) =>
    fetch(`${url}/save/`, {
      method: "POST",
      headers: {
        accept: "text/html",
        "content-type": "application/x-www-form-urlencoded",
        ...(acceptLanguage ? { "accept-language": acceptLanguage } : {}),
      },
      body: "email=a%40example.test&name=Ann",
    });

  test("a form without its CSRF token: the 403 page in French and German; English without Accept-Language", async () => {
    const french = await refusedForm("fr");
    assert.equal(french.status, 403);
    assert.match(await french.text(), /<html lang="fr">[\s\S]*<title>403 Accès refusé<\/title>/);
    assert.match(await (await refusedForm("de")).text(), /<html lang="de">[\s\S]*<h1>403 Nicht erlaubt<\/h1>/);
    assert.match(await (await refusedForm()).text(), /<html lang="en">[\s\S]*<title>403 Forbidden<\/title>/);
  });

  test("the framework's own messages follow: CSRF, a path nothing serves, a verb not allowed; an English page keeps the English text", async () => {
    assert.match(
      await (await refusedForm("fr")).text(),
      /<p>Les requêtes POST ont besoin d’un jeton CSRF\. Rechargez le formulaire et réessayez\.<\/p>/,
    );
    assert.match(
      await (await refusedForm()).text(),
      /<p>POST requests need a CSRF token: send the form field &#34;_csrf_token&#34;/,
    );
    const missing = await fetch(`${url}/no-such-page/`, { headers: { accept: "text/html", "accept-language": "es" } });
    assert.equal(missing.status, 404);
    assert.match(await missing.text(), /<p>No hay nada en \/no-such-page\/\.<\/p>/);
    const english = await fetch(`${url}/no-such-page/`, { headers: { accept: "text/html" } });
    assert.match(await english.text(), /<p>Nothing is served at \/no-such-page\/\.<\/p>/);
  });
});

describe("fw-a framework errors in JSON, in the request's language", () => {
  let app: Host;
  let url = "";
  before(async () => {
    app = await createApp({
      root,
      auth: { loadUser: () => undefined },
      config: { env: "test", logRequests: false, dbUrl: "sqlite::memory:" },
    });
    url = (await listenForTest(app)).url;
  });
  after(() => app.close());

  const json = { accept: "application/json", "accept-language": "de" };
  const message = async (res: Response) => ((await res.json()) as { error: { message: string } }).error.message;

  test("404, 405 and the CSRF 403 answer in German, as the 422 does; English without Accept-Language", async () => {
    const missing = await fetch(`${url}/nope/`, { headers: json });
    assert.equal(missing.status, 404);
    assert.match(missing.headers.get("content-type") ?? "", /json/);
    assert.match(await message(missing), /^Unter \/nope\/ /);
    const verb = await fetch(`${url}/save/`, { method: "PUT", headers: json });
    assert.equal(verb.status, 405);
    assert.doesNotMatch(await message(verb), /not allowed/i);
    const csrf = await fetch(`${url}/save/`, {
      method: "POST",
      headers: { ...json, "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(csrf.status, 403);
    assert.match(await message(csrf), /CSRF-Token/);
    const english = await fetch(`${url}/nope/`, { headers: { accept: "application/json" } });
    assert.equal(await message(english), "Nothing is served at /nope/.");
  });
});

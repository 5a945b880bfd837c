// fw-b offers the request's translator on ctx.state (services' translatorStateGetters, the
// mechanism fw-a's translations plugin uses), so the shared batteries' words follow the request's
// language: pagination labels, a refused form's flash, the built-in error page's title, and zod's
// own validation messages (data's validate(); a schema's own message stays as written).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { httpClient, csrfFrom } from "@fwkit/test-servers";
import { startBatteryApp, type BatteryApp } from "./fixture.js";

describe("fw-b batteries in the request's language", () => {
  let app: BatteryApp;
  before(async () => {
    app = await startBatteryApp();
  });
  after(() => app.close());

  const french = { "accept-language": "fr" };

  test("pagination labels follow Accept-Language; English without one", async () => {
    const fr = await (await fetch(`${app.url}/forms`, { headers: french })).text();
    assert.match(fr, /rel="prev">« Précédent<\/a>/);
    assert.match(fr, /rel="next">Suivant »<\/a>/);
    const en = await (await fetch(`${app.url}/forms`)).text();
    assert.match(en, /rel="next">Next »<\/a>/);
  });

  test("dates follow Accept-Language (month names, time ago); English without one", async () => {
    const day = async (language?: string): Promise<[ago: string, day: string]> => {
      const html = await (
        await fetch(`${app.url}/forms`, { headers: language ? { "accept-language": language } : {} })
      ).text();
      const found = /<p class="ago">([^<]*)<\/p><p class="day">([^<]*)<\/p>/.exec(html);
      assert.ok(found, html);
      return [found[1]!, found[2]!];
    };
    const [frAgo, frDay] = await day("fr");
    assert.match(frAgo, /^il y a /);
    assert.equal(frDay, "1 mai 2024");
    const [deAgo, deDay] = await day("de");
    assert.match(deAgo, /^vor /);
    assert.equal(deDay, "1 Mai 2024");
    assert.equal((await day("es"))[1], "1 mayo 2024");
    const [enAgo, enDay] = await day();
    assert.match(enAgo, / ago$/);
    assert.equal(enDay, "1 May 2024");
  });

  test("numbers follow Accept-Language (format_number); English without one", async () => {
    const number = async (language?: string) => {
      const html = await (
        await fetch(`${app.url}/forms`, { headers: language ? { "accept-language": language } : {} })
      ).text();
      return /<p class="num">([^<]*)<\/p>/.exec(html)?.[1]?.replace(/\s/g, " ");
    };
    assert.equal(await number("fr"), "1 234,5");
    assert.equal(await number("de"), "1.234,5");
    assert.equal(await number(), "1,234.5");
  });

  test("a refused form's flash is in French for Accept-Language: fr", async () => {
    const browser = httpClient(app.url);
    const token = csrfFrom(await (await browser.fetch("/signup", { headers: french })).text());
    const res = await browser.form(
      "/signup",
      { _csrf_token: token, name: "<", age: "-3" },
      { referer: `${app.url}/signup`, ...french },
    );
    assert.equal(res.status, 303);
    const page = await (await browser.fetch("/signup", { headers: french })).text();
    assert.match(page, /class="flash error">Vérifiez ces champs : name, age\.<\/p>/);
  });

  test("zod's messages in the request's language: a 422 answer (fr) and a form re-rendered (es)", async () => {
    const browser = httpClient(app.url);
    const token = csrfFrom(await (await browser.fetch("/forms")).text());
    const res = await browser.fetch("/api/signup", {
      method: "POST",
      body: JSON.stringify({ name: "x", age: "old" }),
      headers: { "content-type": "application/json", "x-csrf-token": token, ...french },
    });
    assert.equal(res.status, 422);
    const { error } = (await res.json()) as { error: { fields: Record<string, string[]> } };
    assert.deepEqual(error.fields["age"], ["Entrée invalide : nombre attendu, NaN reçu"]);
    assert.deepEqual(error.fields["name"], ["Name: at least 2 characters"], "the schema's own message is kept");
    const spanish = { "accept-language": "es" };
    const form = await browser.fetch("/signup", { headers: spanish });
    await browser.form(
      "/signup",
      { _csrf_token: csrfFrom(await form.text()), name: "Ada", age: "old" },
      { referer: `${app.url}/signup`, ...spanish },
    );
    const page = await (await browser.fetch("/signup", { headers: spanish })).text();
    assert.match(page, /<span class="error age">Entrada inválida: se esperaba número, recibido NaN<\/span>/);
  });

  test("the 422 summary line (JSON and XML) is in the request's language; English unchanged", async () => {
    const browser = httpClient(app.url);
    const token = csrfFrom(await (await browser.fetch("/forms")).text());
    const refuse = (path: string, language?: string) =>
      browser.fetch(path, {
        method: "POST",
        body: JSON.stringify({ name: "x", age: "old" }),
        headers: {
          "content-type": "application/json",
          "x-csrf-token": token,
          ...(language ? { "accept-language": language } : {}),
        },
      });
    const summary = async (language?: string) => {
      const res = await refuse("/api/signup", language);
      assert.equal(res.status, 422);
      return ((await res.json()) as { error: { message: string } }).error.message;
    };
    assert.equal(await summary("fr"), "Vérifiez ces champs : name, age.");
    assert.equal(await summary("de"), "Bitte prüfen Sie diese Felder: name, age.");
    assert.equal(await summary(), "Validation failed for name, age.");
    const xml = await refuse("/xml-api/signup", "es");
    assert.equal(xml.status, 422);
    assert.match(await xml.text(), /<error><status>422<\/status><message>Revisa estos campos: name, age\.<\/message>/);
    assert.match(
      await (await refuse("/xml-api/signup")).text(),
      /<message>Validation failed for name, age\.<\/message>/,
    );
  });

  test("an error raised by the batteries' middleware (no CSRF token) gets its page in the request's language", async () => {
    const refused = (language?: string) =>
      fetch(`${app.url}/forms/save`, {
        method: "POST",
        headers: {
          accept: "text/html",
          "content-type": "application/x-www-form-urlencoded",
          ...(language ? { "accept-language": language } : {}),
        },
        body: "note=x",
      });
    const french = await refused("fr");
    assert.equal(french.status, 403);
    assert.match(await french.text(), /<html lang="fr"[\s\S]*<title>403 Accès refusé<\/title>/);
    assert.match(await (await refused("es")).text(), /<html lang="es"[\s\S]*<h1>403 No permitido<\/h1>/);
    assert.match(
      await (await refused()).text(),
      /<html lang="en"[\s\S]*<title>403 Not allowed<\/title>/,
      "fw-b's own English wording",
    );
  });

  test("the built-in error page titles itself in the request's language", async () => {
    const res = await fetch(`${app.url}/no-such-page`, { headers: { "accept-language": "de" } });
    assert.equal(res.status, 404);
    assert.match(await res.text(), /<html lang="de"[\s\S]*<title>404 Seite nicht gefunden<\/title>/);
    const en = await fetch(`${app.url}/no-such-page`);
    assert.match(await en.text(), /<title>404 Page not found<\/title>/, "fw-b's own English wording");
  });
});

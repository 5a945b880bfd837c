// Validation messages in the request's language: data's validate() gives zod its shipped locale
// (French, Spanish, German) per request, so a 422 answer and a re-rendered form speak the language
// fw-a's translations plugin chose; English stays zod's own wording.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { createApp, type Host } from "../src/index.js";
import { listenForTest } from "../src/testing/index.js";
import { HttpClient } from "@fwkit/test-servers";

const root = fileURLToPath(new URL("./secure-app", import.meta.url));

describe("fw-a validation messages in the request's language", () => {
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

  async function refusedFields(acceptLanguage?: string): Promise<Record<string, string[]>> {
    const browser = new HttpClient(url);
    const token = await browser.csrfToken("/form/");
    const res = await browser.fetch("/api/create/", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-csrf-token": token,
        ...(acceptLanguage ? { "accept-language": acceptLanguage } : {}),
      },
      body: JSON.stringify({ email: "nope", name: "x" }),
    });
    assert.equal(res.status, 422);
    return ((await res.json()) as { error: { fields: Record<string, string[]> } }).error.fields;
  }

  test("a 422 answer in French, Spanish and German; English without Accept-Language", async () => {
    assert.deepEqual(await refusedFields("fr"), {
      email: ["adresse e-mail invalide"],
      name: ["Trop petit : chaîne de caractères doit avoir >=2 caractères"],
    });
    assert.match((await refusedFields("es"))["name"]![0]!, /^Demasiado pequeño/);
    assert.match((await refusedFields("de"))["email"]![0]!, /E-Mail-Adresse/);
    assert.deepEqual((await refusedFields())["name"], ["Too small: expected string to have >=2 characters"]);
  });

  test("the 422 answer's summary line is in the request's language; English unchanged", async () => {
    const summary = async (acceptLanguage?: string) => {
      const browser = new HttpClient(url);
      const token = await browser.csrfToken("/form/");
      const res = await browser.fetch("/api/create/", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-csrf-token": token,
          ...(acceptLanguage ? { "accept-language": acceptLanguage } : {}),
        },
        body: JSON.stringify({ email: "nope", name: "x" }),
      });
      assert.equal(res.status, 422);
      return ((await res.json()) as { error: { message: string } }).error.message;
    };
    assert.equal(await summary("fr"), "Vérifiez ces champs : email, name.");
    assert.equal(await summary("es"), "Revisa estos campos: email, name.");
    assert.equal(await summary("de"), "Bitte prüfen Sie diese Felder: email, name.");
    assert.equal(await summary(), "Validation failed for email, name.");
    assert.equal(await summary("en"), "Validation failed for email, name.");
  });

  test("a refused HTML form shows the field's message and the flash in German", async () => {
    const browser = new HttpClient(url);
    const german = { "accept-language": "de" };
    const token = await browser.csrfToken("/form/");
    const res = await browser.form(
      "/save/",
      { email: "nope", name: "Ann", _csrf_token: token },
      { referer: `${url}/form/`, ...german },
    );
    assert.equal(res.status, 303);
    const page = await (await browser.fetch("/form/", { headers: german })).text();
    assert.match(page, /<span class="error">Ungültig: E-Mail-Adresse<\/span>/);
    assert.match(page, /<p class="flash">Bitte prüfen Sie diese Felder: email\.<\/p>/);
  });
});

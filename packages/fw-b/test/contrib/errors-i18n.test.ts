// contrib.errors (styled pages with the right status, overridable per status; JSON stays JSON)
// and contrib.i18n (English shipped, the user's language or Accept-Language).
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { acceptedLanguages, createI18n, EN } from "../../src/contrib/index.js";
import { httpClient, csrfFrom } from "@fwkit/test-servers";
import { createUser, startContribApp, type ContribApp } from "./fixture.js";

describe("contrib.errors", () => {
  let app: ContribApp;
  before(async () => {
    app = await startContribApp({
      templates: {
        "contrib/errors/418.pug": "extends /layouts/default\nblock content\n  h1.teapot I am a teapot (#{status})\n",
      },
    });
  });
  after(() => app.close());

  test("styled pages for 4xx and 5xx with the right status, the layout and the message", async () => {
    const cases: Array<[string, number, RegExp]> = [
      ["/nowhere", 404, /Page not found/],
      ["/teapot", 403, /Not allowed/],
      ["/broken", 500, /Something went wrong/],
      ["/reset-password/x/y/z", 404, /Page not found/],
    ];
    for (const [path, status, title] of cases) {
      const res = await fetch(app.url + path);
      assert.equal(res.status, status, path);
      const html = await res.text();
      assert.match(html, title, path);
      assert.match(html, new RegExp(`<div class="code">${status}</div>`));
      assert.match(html, /<link rel="stylesheet" href="\/_fw-b\/fw-b\.css">/, "in the styled layout");
    }
    const broken = await (await fetch(`${app.url}/broken`)).text();
    assert.doesNotMatch(broken, /kaput/, "no details of a 500 outside development");
    const bad = await fetch(`${app.url}/%E0%A4%A`);
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /Bad request/);
  });

  test("JSON views and JSON clients still get JSON errors", async () => {
    const res = await fetch(`${app.url}/api/missing`);
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), { error: { status: 404, message: "No such thing" } });
    const client = await fetch(`${app.url}/nowhere`, { headers: { accept: "application/json" } });
    assert.equal(((await client.json()) as { error: { status: number } }).error.status, 404);
  });

  test("an app overrides one status with templates/contrib/errors/<status>.pug; the others keep fw-b's", async () => {
    const res = await fetch(`${app.url}/kettle`);
    assert.equal(res.status, 418);
    assert.match(await res.text(), /<h1 class="teapot">I am a teapot \(418\)<\/h1>/);
    const other = await fetch(`${app.url}/nowhere`);
    assert.equal(other.status, 404);
    assert.match(await other.text(), /Page not found/);
  });
});

describe("contrib.i18n", () => {
  let app: ContribApp;
  before(async () => {
    app = await startContribApp({
      contrib: {
        auth: true,
        errors: true,
        i18n: {
          resources: {
            it: { "auth.login.title": "Accedi" },
            fr: {
              "auth.login.title": "Connexion",
              "errors.status.404": "Page introuvable",
              "form.required": "Ce champ est obligatoire.",
            },
          },
        },
      },
    });
  });
  after(() => app.close());

  test("Accept-Language picks a language (with q-values and region fallback); English otherwise", async () => {
    const get = (lang: string, path = "/login") =>
      fetch(app.url + path, { headers: { "accept-language": lang } }).then((r) => r.text());
    assert.match(await get("fr-CA,fr;q=0.9"), /<html lang="fr"[^>]*>[\s\S]*Connexion/);
    assert.match(await get("ja;q=0.9,fr;q=0.5"), /Connexion/);
    assert.match(await get("de"), /<html lang="de"[\s\S]*Anmelden/, "German ships with fw-b");
    assert.match(await get("ja"), /<html lang="en"[\s\S]*Log in/);
    assert.match(
      await get("fr", "/nowhere"),
      /Page introuvable[\s\S]*<p>Rien n’est servi à l’adresse \/nowhere\.<\/p>/,
      "the framework's own message too",
    );
    assert.match(await get("en", "/nowhere"), /<p>Nothing is served at \/nowhere\.<\/p>/);
    assert.match(
      await get("it", "/login"),
      /<html lang="it"[\s\S]*Accedi[\s\S]*Username or email/,
      "missing Italian strings fall back to English",
    );
  });

  test("a German error page has a German <title> above its German heading; JSON errors are German too", async () => {
    const html = await fetch(`${app.url}/nowhere`, { headers: { "accept-language": "de" } }).then((r) => r.text());
    const heading = /<h1>([^<]+)<\/h1>/.exec(html)?.[1];
    assert.ok(heading && heading !== "Page not found", `a German heading: ${heading}`);
    assert.match(html, new RegExp(`<title>404 ${heading}</title>`), "the title says what the heading says");
    const json = await fetch(`${app.url}/nowhere`, {
      headers: { accept: "application/json", "accept-language": "de" },
    });
    assert.equal(json.headers.get("content-language"), "de");
    assert.deepEqual(await json.json(), { error: { status: 404, message: "Unter /nowhere gibt es nichts." } });
    const verb = await fetch(`${app.url}/api`, {
      method: "DELETE",
      headers: { accept: "application/json", "accept-language": "de" },
    });
    assert.equal(verb.status, 405);
    assert.match(((await verb.json()) as { error: { message: string } }).error.message, /ist hier nicht erlaubt/);
  });

  test("a user's language setting wins over the browser's; messages are translated", async () => {
    await createUser(app, { username: "zoe", password: "zoe-password-1", locale: "fr" });
    const browser = httpClient(app.url);
    const token = csrfFrom((await browser.page("/login")).text);
    await browser.form("/login", { _csrf_token: token, identifier: "zoe", password: "zoe-password-1" });
    const page = await browser.fetch("/account", { headers: { "accept-language": "en" } });
    assert.match(await page.text(), /<html lang="fr"/);
    const form = await browser.page("/account");
    await browser.form("/account", { _csrf_token: csrfFrom(form.text), name: "", locale: "fr" });
    assert.match((await browser.page("/account")).text, /Ce champ est obligatoire\./);
  });

  test("parsing Accept-Language", () => {
    assert.deepEqual(acceptedLanguages("fr;q=0.5, en-GB, de;q=0.9, *;q=0.1, xx;q=0"), ["en-GB", "de", "fr"]);
    assert.deepEqual(acceptedLanguages(undefined), []);
    assert.deepEqual(acceptedLanguages("x".repeat(2000)), []);
    const i18n = createI18n("/nonexistent", { resources: { "pt-BR": { "nav.login": "Entrar" } } });
    assert.equal(i18n.negotiate("pt-br"), "pt-BR");
    assert.equal(i18n.translator("pt-BR")("nav.login"), "Entrar");
    assert.equal(
      i18n.translator("pt-BR")("auth.welcome", { name: "<Ana>" }),
      "Welcome, <Ana>!",
      "not HTML-escaped: templates escape",
    );
  });

  test("every key the contrib templates and sources use exists in English", () => {
    const root = fileURLToPath(new URL("../..", import.meta.url));
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const full = join(dir, entry);
        if (statSync(full).isDirectory()) walk(full);
        else if (/\.(pug|txt|ts)$/.test(entry) && !entry.endsWith(".test.ts")) files.push(full);
      }
    };
    walk(join(root, "templates"));
    walk(join(root, "src", "contrib"));
    const missing: string[] = [];
    for (const file of files) {
      for (const match of readFileSync(file, "utf8").matchAll(/\btr?\(\s*"([a-zA-Z0-9_.]+)"/g)) {
        // A key used with a count exists as its plural forms (`key_one`, `key_other`).
        if (!match[1]!.endsWith(".") && !(match[1]! in EN) && !(`${match[1]}_other` in EN))
          missing.push(`${match[1]} (${file.slice(root.length)})`);
      }
    }
    assert.deepEqual(missing, []);
    for (const status of ["all", "active", "inactive", "deleted"]) assert.ok(`admin.users.status.${status}` in EN);
  });
});

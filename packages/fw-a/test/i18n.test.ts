// fw-a speaks the request's language like fw-b: `t` in Nunjucks (the batteries' strings in
// English, French, Spanish and German, plus the app's locales/*.json), the language from the
// user's setting, then the session, then Accept-Language, then the fallback; dates and numbers
// written in that language.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { createApp, FwA, HTTPError, type Host } from "../src/index.js";
import { listenForTest } from "../src/testing/index.js";

/** Page 2 of 3, as data's paginate() describes it. */
const PAGE = {
  page: 2,
  pages: 3,
  links: {
    first: "/?page=1",
    prev: "/?page=1",
    next: "/?page=3",
    last: "/?page=3",
    pages: [1, 2, 3].map((n) => ({ page: n, url: `/?page=${n}`, current: n === 2 })),
  },
};

class Index extends FwA {
  index() {
    return { when: new Date("2026-03-05T18:30:00Z"), total: 1234.5, page: PAGE };
  }

  refused() {
    throw HTTPError.Forbidden("Members only");
  }
}

const TEMPLATE = `<html lang="{{ locale }}"><h1>{{ t("home.title") }}</h1>
<p class="hello">{{ t("home.hello", { name: "<Ann>" }) }}</p>
<p class="date">{{ formatDate(when, "date") }}</p><p class="ago">{{ formatDate(when, "D MMMM YYYY") }}</p>
<p class="number">{{ format_number(total) }}</p>
<a>{{ t("pagination.next") }}</a>
<div class="pages">{{ pagination_links(page) | safe }}</div></html>`;

describe("fw-a translations", () => {
  const root = mkdtempSync(join(tmpdir(), "fw-a-i18n-"));
  let app: Host;
  let url = "";
  before(async () => {
    mkdirSync(join(root, "templates", "main", "Index"), { recursive: true });
    writeFileSync(join(root, "templates", "main", "Index", "index.html"), TEMPLATE);
    mkdirSync(join(root, "locales"));
    writeFileSync(
      join(root, "locales", "en.json"),
      JSON.stringify({ "home.title": "Welcome", "home.hello": "Hello {{name}}" }),
    );
    writeFileSync(
      join(root, "locales", "fr.json"),
      JSON.stringify({ "home.title": "Bienvenue", "home.hello": "Bonjour {{name}}" }),
    );
    app = await createApp({
      root,
      modules: [{ name: "main", exports: { Index } }],
      config: { env: "test", logRequests: false, dbUrl: "sqlite::memory:", batteries: { services: false } },
    });
    url = (await listenForTest(app)).url;
  });
  after(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  const page = (acceptLanguage?: string) =>
    fetch(`${url}/`, { headers: acceptLanguage ? { "accept-language": acceptLanguage } : {} }).then((r) => r.text());

  test("Accept-Language picks French: the app's strings, the batteries' strings, dates and numbers", async () => {
    const html = await page("fr-CA,fr;q=0.9,en;q=0.5");
    assert.match(html, /<html lang="fr">/);
    assert.match(html, /<h1>Bienvenue<\/h1>/);
    assert.match(html, /<p class="hello">Bonjour &lt;Ann&gt;<\/p>/, "values are escaped by the template, once");
    assert.match(html, /<p class="date">5 mars 2026<\/p>/);
    assert.match(html, /<p class="ago">5 mars 2026<\/p>/);
    assert.match(html.replace(/\s/g, " "), /<p class="number">1 234,5<\/p>/);
    assert.match(html, /<a>Suivant »<\/a>/);
    assert.match(
      html,
      /<a href="\/\?page=1" rel="prev">« Précédent<\/a>[\s\S]*rel="next">Suivant »<\/a>/,
      "pagination_links labels itself in the request's language",
    );
  });

  test("German uses the shipped strings and falls back to English for the app's untranslated keys; no header means English", async () => {
    const german = await page("de");
    assert.match(
      german,
      /<html lang="de">[\s\S]*<h1>Welcome<\/h1>[\s\S]*05\.03\.2026[\s\S]*1\.234,5[\s\S]*<a>Weiter »<\/a>/,
    );
    const english = await page();
    assert.match(english, /<html lang="en">[\s\S]*<h1>Welcome<\/h1>[\s\S]*Mar 5, 2026[\s\S]*1,234\.5[\s\S]*Next »/);
  });

  test("the built-in error page speaks the request's language; an app's own message is kept", async () => {
    const missing = await fetch(`${url}/nowhere/`, { headers: { "accept-language": "fr" } });
    assert.equal(missing.status, 404);
    const html = await missing.text();
    assert.match(html, /<html lang="fr">/);
    assert.match(html, /<h1>404 Page introuvable<\/h1>/);
    const refused = await fetch(`${url}/refused/`, { headers: { "accept-language": "de" } });
    assert.equal(refused.status, 403);
    assert.match(await refused.text(), /<h1>403 Nicht erlaubt<\/h1><p>Members only<\/p>/);
    const english = await (await fetch(`${url}/nowhere/`)).text();
    assert.match(english, /<html lang="en">[\s\S]*<h1>404 Not Found<\/h1>/, "English: the standard reason phrase");
  });
});

// fw-a chooses the request's language as fw-b does, end to end: the logged-in user's setting,
// then the language kept in the session, then Accept-Language, then English: the same
// translation function and language negotiation in both frameworks. The page is a Nunjucks template using `t` and `locale`.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { LANGUAGE_SESSION_KEY } from "@fwkit/services/plugin";
import { createApp, FwA, request, security, type Host } from "../src/index.js";
import { listenForTest } from "../src/testing/index.js";
import { HttpClient } from "@fwkit/test-servers";

class Index extends FwA {
  index() {
    return {};
  }
  @request.post @security.csrfExempt language() {
    (this.ctx.session as Record<string, unknown>)[LANGUAGE_SESSION_KEY] = String(this.ctx.query["to"]);
    return "kept";
  }
  @request.post @security.csrfExempt async login() {
    await security.login(this.ctx, { id: 7, name: "Jonas", locale: "de" });
    return "logged in";
  }
}

describe("fw-a: user setting, then session, then Accept-Language, then English", () => {
  const root = mkdtempSync(join(tmpdir(), "fw-a-user-language-"));
  let app: Host;
  let url = "";
  before(async () => {
    mkdirSync(join(root, "templates", "main", "Index"), { recursive: true });
    writeFileSync(
      join(root, "templates", "main", "Index", "index.html"),
      `<html lang="{{ locale }}"><a>{{ t("pagination.next") }}</a></html>`,
    );
    app = await createApp({
      root,
      modules: [{ name: "main", exports: { Index } }],
      auth: { loadUser: (id) => (String(id) === "7" ? { id: 7, name: "Jonas", locale: "de" } : undefined) },
      config: { env: "test", logRequests: false, dbUrl: "sqlite::memory:" },
    });
    url = (await listenForTest(app)).url;
  });
  after(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  async function shown(browser: HttpClient, acceptLanguage?: string): Promise<string> {
    const res = await browser.fetch("/", { headers: acceptLanguage ? { "accept-language": acceptLanguage } : {} });
    assert.equal(res.status, 200);
    const html = await res.text();
    const lang = /<html lang="([^"]+)"><a>([^<]*)<\/a>/.exec(html);
    assert.ok(lang, html);
    return `${lang[1]}: ${lang[2]}`;
  }

  test("each hint overrides the ones after it", async () => {
    const browser = new HttpClient(url);
    assert.equal(await shown(browser), "en: Next »", "no hint: English");
    assert.equal(await shown(browser, "fr-CA,fr;q=0.9"), "fr: Suivant »", "Accept-Language");
    assert.equal((await browser.fetch("/language/?to=es", { method: "POST" })).status, 200);
    assert.equal(await shown(browser, "fr"), "es: Siguiente »", "the session's choice beats Accept-Language");
    assert.equal((await browser.fetch("/login/", { method: "POST" })).status, 200);
    assert.equal(
      await shown(browser, "fr"),
      "de: Weiter »",
      "the user's own setting beats the session and Accept-Language",
    );
    assert.equal(await shown(new HttpClient(url), "fr"), "fr: Suivant »", "another visitor is not affected");
  });
});

import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import type { Context } from "koa";
import type { PluginContext } from "@fwkit/koa-host/plugin";
import { BATTERY_CATALOGS } from "../../src/i18n/battery/catalogs.js";
import { compareCatalogs } from "../../src/i18n/catalogs.js";
import { translationsPlugin } from "../../src/i18n/plugin.js";

const root = mkdtempSync(join(tmpdir(), "services-i18n-"));
mkdirSync(join(root, "locales"));
writeFileSync(
  join(root, "locales", "fr.json"),
  JSON.stringify({ "home.title": "Accueil", "pagination.next": "Plus »" }),
);
writeFileSync(join(root, "locales", "en.json"), JSON.stringify({ "home.title": "Home" }));
after(() => rmSync(root, { recursive: true, force: true }));

const quiet = { info() {}, warn() {}, error() {}, debug() {} };
// The framework hands the plugin the user's language (fw-a reads security's current user); here the
// test's request carries its user on the state, as an app's would.
const userLocale = (ctx: Context) => (ctx.state as { currentUser?: { locale?: unknown } }).currentUser?.locale;
function setUp(config: Record<string, unknown> = {}, dir = root) {
  const plugin = translationsPlugin({ userLocale });
  plugin.setup!({ config: { root: dir, ...config }, logger: quiet } as unknown as PluginContext);
  return plugin;
}
function request(
  headers: Record<string, string>,
  extra: { session?: Record<string, unknown>; user?: Record<string, unknown> } = {},
): Context {
  return {
    state: extra.user ? { currentUser: extra.user } : {},
    session: extra.session,
    get: (name: string) => headers[name.toLowerCase()] ?? "",
  } as unknown as Context;
}

describe("the translations battery", () => {
  test("the batteries' strings exist in English, French, Spanish and German with the same placeholders", () => {
    assert.deepEqual(Object.keys(BATTERY_CATALOGS), ["en", "fr", "es", "de"]);
    assert.deepEqual(compareCatalogs(BATTERY_CATALOGS), []);
  });

  test("templates get t, locale and format_number in the request's language; the app's files win", () => {
    const plugin = setUp();
    const ctx = request({ "accept-language": "fr-FR,en;q=0.5" });
    const locals = plugin.locals!(ctx) as {
      t: (key: string, values?: object) => string;
      locale: string;
      format_number: (n: number) => string;
      languages: string[];
    };
    assert.equal(locals.locale, "fr");
    assert.equal(ctx.state["locale"], "fr", "the date helpers read the language from ctx.state.locale");
    assert.equal(locals.t("home.title"), "Accueil");
    assert.equal(locals.t("pagination.next"), "Plus »", "locales/fr.json overrides the shipped string");
    assert.equal(locals.t("pagination.prev"), "« Précédent");
    assert.equal(locals.t("pagination.page", { page: 2, pages: 5 }), "Page 2 sur 5");
    assert.equal(locals.format_number(1234.5).replace(/\s/g, " "), "1 234,5");
    assert.deepEqual(locals.languages, ["en", "fr", "es", "de"]);
    const german = plugin.locals!(request({ "accept-language": "de" })) as { t: (key: string) => string };
    assert.equal(german.t("home.title"), "Home", "a key the app did not translate falls back to English");
  });

  test("user setting (from the framework's userLocale), then the session's choice, then Accept-Language", () => {
    const plugin = setUp();
    const locale = (ctx: Context) => (plugin.locals!(ctx) as { locale: string }).locale;
    assert.equal(locale(request({ "accept-language": "fr" }, { session: { language: "es" } })), "es");
    assert.equal(
      locale(request({ "accept-language": "fr" }, { session: { language: "es" }, user: { locale: "de" } })),
      "de",
    );
    assert.equal(locale(request({})), "en");
  });

  test("config and locale files are checked at start-up", () => {
    assert.throws(() => setUp({ i18n: { languages: 5 } }), {
      code: "E_SERVICES_CONFIG_INVALID",
      message: /i18n\.languages/,
    });
    assert.throws(() => setUp({ i18n: { languages: ["en", "it"] } }), {
      code: "E_SERVICES_CONFIG_INVALID",
      message: /"it"/,
    });
    const bad = mkdtempSync(join(tmpdir(), "services-i18n-bad-"));
    try {
      mkdirSync(join(bad, "locales"));
      writeFileSync(join(bad, "locales", "fr.json"), "{ not json");
      assert.throws(() => setUp({}, bad), { code: "E_SERVICES_CONFIG_INVALID", message: /locales\/fr\.json/ });
      writeFileSync(join(bad, "locales", "fr.json"), JSON.stringify({ nested: { key: "x" } }));
      assert.throws(() => setUp({}, bad), { code: "E_SERVICES_CONFIG_INVALID", message: /an object of strings/ });
    } finally {
      rmSync(bad, { recursive: true, force: true });
    }
  });
});

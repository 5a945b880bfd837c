import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  acceptedLanguages,
  chooseLanguage,
  compareCatalogs,
  createTranslations,
  formatNumber,
  negotiateLanguage,
} from "../../src/i18n/index.js";

describe("language negotiation", () => {
  const offered = ["en", "fr", "es", "de"];

  test("Accept-Language by q-value, exact tag or primary language, any case", () => {
    assert.deepEqual(acceptedLanguages("de;q=0.5, fr-CA, *;q=0.1, es;q=0"), ["fr-CA", "de"]);
    assert.equal(negotiateLanguage("fr-CA,en;q=0.8", offered), "fr");
    assert.equal(negotiateLanguage("pt-BR, DE;q=0.9", offered), "de");
    assert.equal(negotiateLanguage("ja", offered), undefined);
    assert.equal(negotiateLanguage("x".repeat(2000), offered), undefined, "an oversized header counts as none");
  });

  test("user setting, then the session's choice, then Accept-Language, then the fallback", () => {
    assert.equal(chooseLanguage({ user: "es", session: "de", acceptLanguage: "fr" }, offered, "en"), "es");
    assert.equal(chooseLanguage({ user: null, session: "de", acceptLanguage: "fr" }, offered, "en"), "de");
    assert.equal(
      chooseLanguage({ user: "xx", session: 42, acceptLanguage: "fr" }, offered, "en"),
      "fr",
      "unknown or non-string settings are ignored",
    );
    assert.equal(chooseLanguage({ acceptLanguage: "ja" }, offered, "en"), "en");
  });
});

describe("translations", () => {
  test("interpolation, plural forms by count, and the fallback language for missing keys", () => {
    const translations = createTranslations({
      resources: {
        en: {
          hello: "Hello {{name}}",
          users_one: "{{count}} user",
          users_other: "{{count}} users",
          only: "English only",
        },
        fr: {
          hello: "Bonjour {{name}}",
          users_one: "{{count}} utilisateur",
          users_many: "{{count}} d'utilisateurs",
          users_other: "{{count}} utilisateurs",
        },
      },
    });
    const fr = translations.translator("fr");
    assert.equal(fr("hello", { name: "<Ann>" }), "Bonjour <Ann>", "not HTML-escaped here: templates escape");
    assert.equal(fr("users", { count: 1 }), "1 utilisateur");
    assert.equal(fr("users", { count: 3 }), "3 utilisateurs");
    assert.equal(fr("only"), "English only");
    assert.equal(translations.translator("en")("users", { count: 1 }), "1 user");
    assert.equal(
      translations.translator("xx")("hello", { name: "A" }),
      "Hello A",
      "an unknown language gets the fallback",
    );
    assert.equal(translations.choose({ acceptLanguage: "fr-FR" }), "fr");
  });

  test("a language without a catalog or a bad tag fails at start-up", () => {
    assert.throws(() => createTranslations({ resources: { en: {} }, languages: ["en", "fr"] }), {
      code: "E_SERVICES_CONFIG_INVALID",
      message: /"fr"/,
    });
    assert.throws(() => createTranslations({ resources: { en: {}, "not a tag": {} } }), {
      code: "E_SERVICES_CONFIG_INVALID",
    });
  });
});

describe("catalog comparison", () => {
  test("a key missing in one language, a placeholder that differs and a missing plural form are all reported", () => {
    const problems = compareCatalogs({
      en: { a: "A {{name}}", b: "B", n_one: "{{count}} thing", n_other: "{{count}} things" },
      fr: { a: "A {{nom}}", n_one: "{{count}} chose", n_other: "{{count}} choses" },
      de: { a: "A {{name}}", b: "B", n_one: "{{count}} Ding", n_other: "{{count}} Dinge", extra: "x" },
    });
    assert.deepEqual(problems, [
      'fr: "a" uses the placeholders [nom] where en uses [name]',
      'fr: the key "b" is missing (en, de have it)',
      'en: the key "extra" is missing (de have it)',
      'fr: the key "extra" is missing (de have it)',
      'fr: the plural key "n" lacks the form(s) n_many',
    ]);
    assert.deepEqual(compareCatalogs({ en: { a: "{{x}} a" }, de: { a: "a {{x}}" } }), []);
  });
});

describe("numbers in the request's language", () => {
  test("digit grouping and decimal sign of English, German and French", () => {
    assert.equal(formatNumber(1234.5, "en"), "1,234.5");
    assert.equal(formatNumber(1234.5, "de"), "1.234,5");
    assert.equal(formatNumber(1234.5, "fr").replace(/\s/g, " "), "1 234,5");
    assert.equal(formatNumber(0.25, "es", { style: "percent" }).replace(/\s/g, " "), "25 %");
  });
});

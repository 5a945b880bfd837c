/**
 * The languages fw-b ships (English, French, Spanish, German) agree: a key in one is in all, each
 * translation uses the placeholders English uses, and plural keys have every form the language's
 * grammar needs. A string added in English only fails here until it is translated.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { compareCatalogs } from "@fwkit/services/plugin";
import { createI18n, SHIPPED } from "../../src/contrib/index.js";

test("the shipped catalogs have the same keys, placeholders and plural forms", () => {
  assert.deepEqual(Object.keys(SHIPPED), ["en", "fr", "es", "de"]);
  assert.deepEqual(compareCatalogs(SHIPPED), []);
});

test("a catalog that lacks a key or changes a placeholder is caught (the check itself works)", () => {
  const { "nav.login": _dropped, ...withoutLogin } = SHIPPED["fr"]!;
  const problems = compareCatalogs({
    en: SHIPPED["en"]!,
    fr: { ...withoutLogin, "auth.welcome": "Bienvenue, {{nom}} !" },
  });
  assert.ok(
    problems.some((line) => line.includes('"nav.login" is missing')),
    problems.join("\n"),
  );
  assert.ok(
    problems.some((line) => line.includes('"auth.welcome" uses the placeholders [nom]')),
    problems.join("\n"),
  );
});

test("every shipped language is offered by default, named in its own language", () => {
  const i18n = createI18n("/nonexistent");
  assert.deepEqual(i18n.languages, ["en", "fr", "es", "de"]);
  assert.deepEqual(i18n.names, { en: "English", fr: "Français", es: "Español", de: "Deutsch" });
  assert.equal(i18n.translator("de")("auth.login.title"), "Anmelden");
  assert.equal(i18n.translator("es")("auth.welcome", { name: "Ana" }), "¡Bienvenido/a, Ana!");
  assert.equal(i18n.choose({ session: "fr", acceptLanguage: "de" }), "fr");
});

test("the languages' own names are worked out when first read, not when the app starts", () => {
  const DisplayNames = Intl.DisplayNames;
  const intl = Intl as { DisplayNames: typeof DisplayNames };
  let made = 0;
  intl.DisplayNames = class extends DisplayNames {
    constructor(...args: ConstructorParameters<typeof DisplayNames>) {
      super(...args);
      made++;
    }
  };
  try {
    const i18n = createI18n("/nonexistent");
    assert.equal(made, 0, "no Intl.DisplayNames while the translations are made");
    assert.equal(i18n.names["fr"], "Français");
    assert.equal(i18n.names["fr"], "Français");
    assert.equal(made, 1, "one for French, read twice");
    assert.deepEqual(Object.keys(i18n.names), ["en", "fr", "es", "de"]);
    assert.ok(Object.isFrozen(i18n.names));
  } finally {
    intl.DisplayNames = DisplayNames;
  }
});

import { createTranslations, type Translate } from "@fwkit/services";
import {
  acceptedLanguages,
  BATTERY_CATALOGS,
  LANGUAGE_TAG,
  readLocaleFiles,
  type LanguageHints,
} from "@fwkit/services/battery";
import { E_CONTRIB_CONFIG } from "../../errors.js";
import type { I18nContribOptions } from "../config.js";
import { DE } from "./de.js";
import { EN } from "./en.js";
import { ES } from "./es.js";
import { FR } from "./fr.js";

export { acceptedLanguages, type Translate };

/** The languages fw-b ships every contrib string in. */
export const SHIPPED: Readonly<Record<string, Readonly<Record<string, string>>>> = Object.freeze({
  en: EN,
  fr: FR,
  es: ES,
  de: DE,
});

/** The app's translations: its languages, the fallback, and a translator per language. */
export interface I18n {
  readonly languages: readonly string[];
  readonly fallback: string;
  /** Each language's name in that language (`français`, `Deutsch`), for the language switcher. */
  readonly names: Readonly<Record<string, string>>;
  /** The translator of a language (the fallback's for an unknown one). */
  translator(language: string): Translate;
  /** The best offered language for an `Accept-Language` header, or undefined. */
  negotiate(acceptLanguage: string | undefined): string | undefined;
  /** The request's language: user setting, then session choice, then `Accept-Language`, then the fallback. */
  choose(hints: LanguageHints): string;
}

/** A language's own name for itself, capitalised as a menu entry. */
function ownName(language: string): string {
  try {
    const name = new Intl.DisplayNames([language], { type: "language" }).of(language) ?? language;
    return name.charAt(0).toLocaleUpperCase(language) + name.slice(1);
  } catch {
    return language;
  }
}

/**
 * Each language's own name, worked out when a page first reads it: the first `Intl.DisplayNames`
 * loads ICU's display-name data, a cost a start (and an app that shows no language switcher)
 * need not pay.
 */
function ownNames(languages: readonly string[]): Readonly<Record<string, string>> {
  const names: Record<string, string> = {};
  for (const language of languages) {
    let name: string | undefined;
    Object.defineProperty(names, language, { enumerable: true, get: () => (name ??= ownName(language)) });
  }
  return Object.freeze(names);
}

/**
 * Builds the translations of an app (services' createTranslations, the machinery fw-a uses too):
 * English, French, Spanish and German shipped with fw-b, more languages (or changed strings) from
 * `contrib.i18n.resources` and the app's `locales/<language>.json` files. Keys are flat
 * (`auth.login.title`); values use `{{name}}` interpolation and `key_one`/`key_other` plural
 * forms, not HTML-escaped (templates escape what they print).
 */
export function createI18n(root: string, options: I18nContribOptions = {}): I18n {
  // The app's locales/<language>.json files, read and checked as fw-a's translations read them.
  const fromFiles = readLocaleFiles(root);
  const resources: Record<string, Record<string, string>> = {};
  // The shared batteries' strings (pagination, error page titles, a refused form's flash) under
  // fw-b's contrib ones, so the data battery and koa-host speak the request's language in fw-b too.
  for (const source of [BATTERY_CATALOGS, SHIPPED]) {
    for (const [language, strings] of Object.entries(source))
      resources[language] = { ...resources[language], ...strings };
  }
  for (const source of [fromFiles, options.resources ?? {}]) {
    for (const [language, strings] of Object.entries(source)) {
      if (!LANGUAGE_TAG.test(language))
        throw new E_CONTRIB_CONFIG(`contrib.i18n.resources.${language}`, "not a language tag such as fr or pt-BR");
      resources[language] = { ...resources[language], ...strings };
    }
  }
  const fallback = options.fallback ?? "en";
  const languages = options.languages ? [...options.languages] : Object.keys(resources);
  for (const language of [fallback, ...languages]) {
    if (!resources[language])
      throw new E_CONTRIB_CONFIG("contrib.i18n", `there are no translations for ${JSON.stringify(language)}`);
  }
  const translations = createTranslations({ resources, fallback, languages, configKey: "contrib.i18n" });
  return Object.freeze({
    languages: translations.languages,
    fallback,
    names: ownNames(languages),
    translator: translations.translator,
    negotiate: translations.negotiate,
    choose: translations.choose,
  });
}

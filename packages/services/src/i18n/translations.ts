/**
 * The translation function both frameworks give their views and templates: catalogs of flat keys
 * per language, `{{name}}` interpolation and plural forms (`key_one`, `key_other`, chosen by
 * `count`) through i18next, loaded at the first string translated.
 */
import type { i18n as I18next, TFunction } from "i18next";
import { requireDriver } from "../drivers.js";
import { E_SERVICES_CONFIG_INVALID } from "../errors.js";
import type { Catalog } from "./catalogs.js";
import { chooseLanguage, LANGUAGE_TAG, negotiateLanguage, type LanguageHints } from "./negotiate.js";

/** Translates a key with interpolation values (`t("auth.welcome", { name })`, `t("users", { count })`). */
export type Translate = (key: string, values?: Readonly<Record<string, unknown>>) => string;

/** An app's languages and their translators. */
export interface Translations {
  readonly languages: readonly string[];
  readonly fallback: string;
  /** The translator of a language (the fallback's for an unknown one). */
  translator(language: string): Translate;
  /** The best offered language for an `Accept-Language` header, or undefined. */
  negotiate(acceptLanguage: string | undefined): string | undefined;
  /** The request's language from its hints (user setting, session, header), else the fallback. */
  choose(hints: LanguageHints): string;
}

/** What {@link createTranslations} needs. */
export interface TranslationsOptions {
  /** Catalogs by language; later sources of the same language are merged over earlier ones by the caller. */
  readonly resources: Readonly<Record<string, Catalog>>;
  /** The language used when nothing else matches, and for keys a language lacks (default `en`). */
  readonly fallback?: string;
  /** The languages offered (default: every language of `resources`). */
  readonly languages?: readonly string[];
  /** Which config key to name in errors (default `i18n`). */
  readonly configKey?: string;
}

/** Builds the translators; unknown language tags and languages without a catalog fail at start-up. */
export function createTranslations(options: TranslationsOptions): Translations {
  const configKey = options.configKey ?? "i18n";
  const resources: Record<string, { app: Catalog }> = {};
  for (const [language, catalog] of Object.entries(options.resources)) {
    if (!LANGUAGE_TAG.test(language))
      throw new E_SERVICES_CONFIG_INVALID(`${configKey}.${language}`, "named by a language tag such as fr or pt-BR");
    resources[language] = { app: catalog };
  }
  const fallback = options.fallback ?? "en";
  const languages = Object.freeze(options.languages ? [...options.languages] : Object.keys(resources));
  for (const language of [fallback, ...languages]) {
    if (!resources[language])
      throw new E_SERVICES_CONFIG_INVALID(
        `${configKey}.languages`,
        `languages that have translations (there are none for ${JSON.stringify(language)})`,
      );
  }
  let fixedByLanguage: Map<string, TFunction> | undefined;
  const fixedOf = (language: string): TFunction => {
    if (!fixedByLanguage) {
      const instance = requireDriver<I18next>("i18next", "translations").createInstance();
      void instance.init({
        resources,
        lng: fallback,
        fallbackLng: fallback,
        supportedLngs: [...languages],
        ns: ["app"],
        defaultNS: "app",
        keySeparator: false,
        nsSeparator: false,
        // Templates escape what they print; escaping here too would show &amp; to the reader.
        interpolation: { escapeValue: false },
        initAsync: false,
        returnNull: false,
      });
      fixedByLanguage = new Map(languages.map((each) => [each, instance.getFixedT(each, "app")]));
    }
    return fixedByLanguage.get(language)!;
  };
  const translators = new Map<string, Translate>();
  for (const language of languages) {
    let fixed: TFunction | undefined;
    translators.set(language, (key, values) =>
      String((fixed ??= fixedOf(language))(key, values as Record<string, unknown>)),
    );
  }
  return Object.freeze({
    languages,
    fallback,
    translator: (language: string) => translators.get(language) ?? translators.get(fallback)!,
    negotiate: (header: string | undefined) => negotiateLanguage(header, languages),
    choose: (hints: LanguageHints) => chooseLanguage(hints, languages, fallback),
  });
}

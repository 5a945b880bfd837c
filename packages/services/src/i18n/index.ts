/** Translations, language negotiation and locale formatting shared by fw-a and fw-b. */
export { compareCatalogs, placeholders, type Catalog } from "./catalogs.js";
export { formatNumber } from "./format.js";
export {
  acceptedLanguages,
  chooseLanguage,
  LANGUAGE_SESSION_KEY,
  LANGUAGE_TAG,
  matchLanguage,
  negotiateLanguage,
  type LanguageHints,
} from "./negotiate.js";
export { createTranslations, type Translate, type Translations, type TranslationsOptions } from "./translations.js";
export { BATTERY_CATALOGS } from "./battery/catalogs.js";
export {
  I18N_CONFIG_KEYS,
  readLocaleFiles,
  requestLocale,
  translationsPlugin,
  type TranslationsPlugin,
  type TranslationsPluginOptions,
} from "./plugin.js";
export { translatorStateGetters } from "./request-translator.js";

/** Translations, language negotiation and locale formatting shared by fw-a and fw-b. */
export { compareCatalogs, placeholders, type Catalog } from "./catalogs.js";
export { formatNumber } from "./format.js";
export { acceptedLanguages, chooseLanguage, LANGUAGE_SESSION_KEY, LANGUAGE_TAG, matchLanguage, negotiateLanguage, type LanguageHints } from "./negotiate.js";
export { createTranslations, type Translate, type Translations, type TranslationsOptions } from "./translations.js";

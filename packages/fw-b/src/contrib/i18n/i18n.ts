import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { i18n as I18next, TFunction } from "i18next";
import { E_CONTRIB_CONFIG } from "../../errors.js";
import type { I18nContribOptions } from "../config.js";
import { EN } from "./en.js";

/** Translates a key with interpolation values (`t("auth.welcome", { name })`). */
export type Translate = (key: string, values?: Readonly<Record<string, unknown>>) => string;

/** The app's translations: its languages, the fallback, and a translator per language. */
export interface I18n {
  readonly languages: readonly string[];
  readonly fallback: string;
  /** The translator of a language (the fallback's for an unknown one). */
  translator(language: string): Translate;
  /** The best offered language for an `Accept-Language` header, or undefined. */
  negotiate(acceptLanguage: string | undefined): string | undefined;
}

const LANGUAGE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

// i18next is loaded at the first string translated (a page render), not when the app is built.
const requireHere = createRequire(import.meta.url);

function readAppLocales(root: string): Record<string, Record<string, string>> {
  const dir = join(root, "locales");
  const found: Record<string, Record<string, string>> = {};
  if (!existsSync(dir)) return found;
  for (const file of readdirSync(dir)) {
    const match = /^(.+)\.json$/.exec(file);
    if (!match || !LANGUAGE.test(match[1]!)) continue;
    try {
      found[match[1]!] = JSON.parse(readFileSync(join(dir, file), "utf8")) as Record<string, string>;
    } catch (error) {
      throw new E_CONTRIB_CONFIG(`locales/${file}`, `not valid JSON (${(error as Error).message})`);
    }
  }
  return found;
}

/** Parses `Accept-Language` into tags by preference (q-values; order kept on ties). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header || header.length > 1000) return [];
  return header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((item) => item.tag !== "" && item.tag !== "*" && Number.isFinite(item.q) && item.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((item) => item.tag);
}

/**
 * Builds the i18next instance of an app: English shipped with fw-b, more languages (or changed
 * English strings) from `contrib.i18n.resources` and the app's `locales/<language>.json` files.
 * Keys are flat (`auth.login.title`); values use `{{name}}` interpolation, not HTML-escaped
 * (templates escape what they print).
 */
export function createI18n(root: string, options: I18nContribOptions = {}): I18n {
  const fromFiles = readAppLocales(root);
  const resources: Record<string, { fwb: Record<string, string> }> = { en: { fwb: { ...EN } } };
  for (const source of [fromFiles, options.resources ?? {}]) {
    for (const [language, strings] of Object.entries(source)) {
      if (!LANGUAGE.test(language)) throw new E_CONTRIB_CONFIG(`contrib.i18n.resources.${language}`, "not a language tag such as fr or pt-BR");
      resources[language] = { fwb: { ...resources[language]?.fwb, ...strings } };
    }
  }
  const fallback = options.fallback ?? "en";
  const languages = options.languages ? [...options.languages] : Object.keys(resources);
  for (const language of [fallback, ...languages]) {
    if (!resources[language]) throw new E_CONTRIB_CONFIG("contrib.i18n", `there are no translations for ${JSON.stringify(language)}`);
  }
  let fixedByLanguage: Map<string, TFunction> | undefined;
  const fixedOf = (language: string): TFunction => {
    if (!fixedByLanguage) {
      const instance: I18next = (requireHere("i18next") as I18next).createInstance();
      void instance.init({
        resources,
        lng: fallback,
        fallbackLng: fallback,
        supportedLngs: languages,
        ns: ["fwb"],
        defaultNS: "fwb",
        keySeparator: false,
        nsSeparator: false,
        interpolation: { escapeValue: false },
        initAsync: false,
        returnNull: false,
      });
      fixedByLanguage = new Map(languages.map((each) => [each, instance.getFixedT(each, "fwb")]));
    }
    return fixedByLanguage.get(language)!;
  };
  const translators = new Map<string, Translate>();
  for (const language of languages) {
    let fixed: TFunction | undefined;
    translators.set(language, (key, values) => String((fixed ??= fixedOf(language))(key, values as Record<string, unknown>)));
  }
  const lower = new Map(languages.map((language) => [language.toLowerCase(), language]));
  return Object.freeze({
    languages: Object.freeze(languages),
    fallback,
    translator: (language: string) => translators.get(language) ?? translators.get(fallback)!,
    negotiate(header: string | undefined) {
      for (const tag of acceptedLanguages(header)) {
        const exact = lower.get(tag.toLowerCase());
        if (exact) return exact;
        const primary = lower.get(tag.split("-")[0]!.toLowerCase());
        if (primary) return primary;
      }
      return undefined;
    },
  });
}

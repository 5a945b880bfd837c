/**
 * The translations battery as a host plugin (fw-a's; fw-b's contrib wraps the same machinery):
 * the batteries' strings in English, French, Spanish and German plus the app's
 * `locales/<language>.json`, the request's language chosen once per request (user setting,
 * session choice, Accept-Language, fallback), and `t`, `locale`, `languages` and `format_number`
 * for templates. The language is put on the host's `localeSlot` (`ctx.state.locale`), where the
 * error pages and the date helpers read it.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Context } from "koa";
import { localeSlot, type HostPlugin, type PluginContext } from "@fwkit/koa-host/plugin";
import { E_SERVICE_NOT_CONFIGURED, E_SERVICES_CONFIG_INVALID } from "../errors.js";
import { BATTERY_CATALOGS } from "./battery/catalogs.js";
import type { Catalog } from "./catalogs.js";
import { formatNumber } from "./format.js";
import { translatorStateGetters } from "./request-translator.js";
import { LANGUAGE_SESSION_KEY, LANGUAGE_TAG } from "./negotiate.js";
import type { MailPreviewHints } from "../mail/previews/index.js";
import { createTranslations, type Translations } from "./translations.js";
import { i18nConfigSchema } from "../config-schema.js";

/** The config keys of the translations plugin: `i18n: { languages, fallback }`. */
export const I18N_CONFIG_KEYS = i18nConfigSchema.configKeys;

/** The app's `locales/<language>.json` files (flat keys); a file that is not JSON fails at start-up. */
export function readLocaleFiles(root: string): Record<string, Catalog> {
  const dir = join(root, "locales");
  const found: Record<string, Catalog> = {};
  if (!existsSync(dir)) return found;
  for (const file of readdirSync(dir)) {
    const match = /^(.+)\.json$/.exec(file);
    if (!match || !LANGUAGE_TAG.test(match[1]!)) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(join(dir, file), "utf8"));
    } catch (error) {
      throw new E_SERVICES_CONFIG_INVALID(`locales/${file}`, `valid JSON (${(error as Error).message})`);
    }
    if (
      typeof parsed !== "object" ||
      parsed === null ||
      Array.isArray(parsed) ||
      Object.values(parsed).some((value) => typeof value !== "string")
    ) {
      throw new E_SERVICES_CONFIG_INVALID(
        `locales/${file}`,
        'an object of strings: { "key": "text with {{placeholders}}" }',
      );
    }
    found[match[1]!] = parsed as Catalog;
  }
  return found;
}

/** The translations plugin with the app's translations once `setup` ran. */
export interface TranslationsPlugin extends HostPlugin {
  readonly translations: Translations;
  /** The languages and translators the development mail previews render each mail in. */
  mailPreview(): MailPreviewHints | undefined;
}

/**
 * The request's language: the logged-in user's setting (`userLocale`, which the framework reads from
 * the security battery's current user), the session's choice, Accept-Language, the fallback; decided
 * once per request.
 */
export function requestLocale(
  ctx: Context,
  translations: Translations,
  userLocale?: (ctx: Context) => unknown,
): string {
  const known = localeSlot.get(ctx);
  if (typeof known === "string") return known;
  let session: unknown;
  try {
    session = (ctx as Context & { session?: Record<string, unknown> | null }).session?.[LANGUAGE_SESSION_KEY];
  } catch {
    // No session on this request (or its store is down): the other hints decide.
  }
  const locale = translations.choose({ user: userLocale?.(ctx), session, acceptLanguage: ctx.get("Accept-Language") });
  localeSlot.set(ctx, locale);
  return locale;
}

/** Options of {@link translationsPlugin}. */
export interface TranslationsPluginOptions {
  /** Strings added or changed over the shipped ones and the app's `locales/` files. */
  readonly resources?: Readonly<Record<string, Catalog>>;
  /**
   * The logged-in user's language setting for a request (the framework reads the security battery's
   * current user: this battery does not import another), tried before the session and Accept-Language.
   */
  readonly userLocale?: (ctx: Context) => unknown;
}

/** Creates the translations plugin; `resources` adds or changes strings over the shipped ones and the app's files. */
export function translationsPlugin(options: TranslationsPluginOptions = {}): TranslationsPlugin {
  let translations: Translations | undefined;
  const ready = (): Translations => {
    if (!translations)
      throw new E_SERVICE_NOT_CONFIGURED(
        "translator",
        "the translations plugin is used before its setup ran; add it to the app's plugins",
      );
    return translations;
  };
  return {
    name: "i18n",
    configKeys: I18N_CONFIG_KEYS,
    get translations() {
      return ready();
    },
    // The mail previews (/_mail) render each mail in every language with its translator.
    mailPreview() {
      const current = translations;
      return current
        ? { languages: current.languages, translator: (language: string) => current.translator(language) }
        : undefined;
    },
    setup(context: PluginContext) {
      const config = i18nConfigSchema.resolve(context.config, { env: {} }).i18n;
      const resources: Record<string, Record<string, string>> = {};
      for (const source of [BATTERY_CATALOGS, readLocaleFiles(context.config.root), options.resources ?? {}]) {
        for (const [language, strings] of Object.entries(source))
          resources[language] = { ...resources[language], ...strings };
      }
      translations = createTranslations({
        resources,
        ...(config.fallback ? { fallback: config.fallback } : {}),
        ...(config.languages ? { languages: [...config.languages] } : {}),
      });
    },
    stateGetters() {
      // The built-in error page (koa-host) titles itself in the request's language through this
      // translator; a getter, so a request that shows no such page never chooses its language.
      // The translations are made at setup, before the host asks for the getters.
      const current = ready();
      return translatorStateGetters((ctx) => current.translator(requestLocale(ctx, current, options.userLocale)));
    },
    locals(ctx: Context) {
      const current = ready();
      const locale = requestLocale(ctx, current, options.userLocale);
      return {
        t: current.translator(locale),
        locale,
        languages: current.languages,
        format_number: (value: number, numberOptions?: Intl.NumberFormatOptions) =>
          formatNumber(value, locale, numberOptions),
      };
    },
  };
}

import type { BatteryPlugins } from "@fwkit/app-kit";
import type { AppConfig } from "@fwkit/koa-host";
import type { PluginContext } from "@fwkit/koa-host/plugin";
import { assetUrls } from "../assets.js";
import { E_CONTRIB_CONFIG, E_CONTRIB_NOT_SET_UP } from "../errors.js";
import type { CaptchaVerifier } from "./captcha/verifier.js";
import type { ContribSettings } from "./config.js";
import type { I18n } from "./i18n/i18n.js";
import { languageSwitchOn } from "./i18n/switch.js";
import type { MaintenanceFlag } from "./maintenance/flag.js";
import type { ContribModels } from "./models.js";
import { checkContribProduction } from "./production-checks.js";
import type { AdminNavItem, ContribRuntime } from "./runtime.js";

/** What the contrib runtime reads that the fw-b plugin learns at start-up. */
export interface ContribStartUp {
  readonly adminNav: readonly AdminNavItem[];
  readonly logger: PluginContext["logger"] | undefined;
}

/** The parts of the contrib runtime made before start-up. */
export interface ContribParts {
  readonly config: AppConfig;
  readonly settings: ContribSettings;
  readonly batteries: BatteryPlugins;
  readonly models: ContribModels;
  readonly i18n: I18n;
  readonly captcha: CaptchaVerifier | undefined;
  readonly maintenance: MaintenanceFlag | undefined;
}

/**
 * The contrib modules' runtime: their settings, models and translations, and the batteries' parts
 * they use (the database, the mailer, password hashing), each refused with the battery to keep on
 * when it is off. Production needs a mailer and the public address for the modules that mail links.
 */
export function contribRuntime(parts: ContribParts, startUp: () => ContribStartUp): ContribRuntime {
  const { settings, batteries } = parts;
  const baseUrl = checkContribProduction(parts.config, settings, batteries);
  return {
    settings,
    baseUrl,
    models: parts.models,
    i18n: parts.i18n,
    captcha: parts.captcha,
    maintenance: parts.maintenance,
    get adminNav() {
      return startUp().adminNav;
    },
    get loginUrl() {
      return batteries.security?.config.loginUrl ?? "/login";
    },
    get logger() {
      const logger = startUp().logger;
      if (!logger) throw new E_CONTRIB_NOT_SET_UP("The contrib runtime's logger");
      return logger;
    },
    knex: () => {
      if (!batteries.data) throw new E_CONTRIB_CONFIG("batteries.data", "the contrib modules need the data battery");
      return batteries.data.database.knex;
    },
    mailer: () => {
      if (!batteries.services)
        throw new E_CONTRIB_CONFIG("batteries.services", "the contrib modules need the services battery to send mail");
      return batteries.services.services.mailer;
    },
    hashPassword: (password) => {
      if (!batteries.security)
        throw new E_CONTRIB_CONFIG("batteries.security", "the contrib modules need the security battery");
      return batteries.security.hashPassword(password);
    },
  };
}

/** Template values that never change for an app, made once at start-up. */
export function fixedLocals(settings: ContribSettings, i18n: I18n, basePath: string) {
  return Object.freeze({
    languages: i18n.languages,
    language_names: i18n.names,
    fwb_assets: assetUrls(basePath),
    contrib: Object.freeze({
      // The layout's language switcher posts to /language (contrib/i18n/views.ts).
      language: languageSwitchOn(settings),
      auth: Boolean(settings.auth),
      signup: Boolean(settings.auth?.signup),
      contact: Boolean(settings.contact),
      admin: Boolean(settings.admin),
      maintenance: Boolean(settings.maintenance),
      oauth: Object.entries(settings.oauth?.providers ?? {}).map(([name, provider]) =>
        Object.freeze({ name, title: provider.title ?? name }),
      ),
    }),
  });
}

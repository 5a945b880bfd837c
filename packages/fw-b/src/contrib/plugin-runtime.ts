import type { BatteryPlugins } from "@fwkit/app-kit";
import type { Knex } from "@fwkit/data";
import type { PluginContext } from "@fwkit/koa-host/plugin";
import { assetUrls } from "../assets.js";
import { E_CONTRIB_CONFIG } from "../errors.js";
import type { CaptchaVerifier } from "./captcha/verifier.js";
import type { ContribSettings } from "./config.js";
import type { I18n } from "./i18n/i18n.js";
import { languageSwitchOn } from "./i18n/switch.js";
import type { MaintenanceFlag } from "./maintenance/flag.js";
import type { ContribModels } from "./models.js";
import type { AdminNavItem, ContribRuntime } from "./runtime.js";

/** What the contrib runtime takes from the host at the fw-b plugin's setup. */
export interface ContribStartUp {
  readonly adminNav: readonly AdminNavItem[];
  readonly logger: PluginContext["logger"];
}

/** The parts of the contrib runtime made with the fw-b plugin, before start-up. */
export interface ContribParts {
  readonly settings: ContribSettings;
  readonly batteries: BatteryPlugins;
  readonly models: ContribModels;
  readonly i18n: I18n;
  readonly captcha: CaptchaVerifier | undefined;
  readonly maintenance: MaintenanceFlag | undefined;
  /** The app's public address, as the production checks decided it. */
  readonly baseUrl: string | undefined;
}

/**
 * The database of the contrib modules: the data battery's, once its setup has run; refused with
 * the battery to keep on when it is off.
 */
export function contribKnex(batteries: BatteryPlugins): () => Knex {
  return () => {
    if (!batteries.data) throw new E_CONTRIB_CONFIG("batteries.data", "the contrib modules need the data battery");
    return batteries.data.database.knex;
  };
}

/**
 * The contrib modules' runtime, made at the fw-b plugin's setup: their settings, models and
 * translations, what the host gives at setup (the admin menu from the route table, the logger),
 * and the batteries' parts they use (the database, the mailer, password hashing), each refused
 * with the battery to keep on when it is off.
 */
export function contribRuntime(parts: ContribParts, startUp: ContribStartUp): ContribRuntime {
  const { settings, batteries } = parts;
  return {
    settings,
    baseUrl: parts.baseUrl,
    models: parts.models,
    i18n: parts.i18n,
    captcha: parts.captcha,
    maintenance: parts.maintenance,
    adminNav: startUp.adminNav,
    logger: startUp.logger,
    get loginUrl() {
      return batteries.security?.config.loginUrl ?? "/login";
    },
    knex: contribKnex(batteries),
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

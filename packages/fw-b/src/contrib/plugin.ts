import type { Context } from "koa";
import type { BatteryPlugins } from "@fwkit/app-kit";
import type { AppConfig } from "@fwkit/koa-host";
import type { HostPlugin, PluginContext } from "@fwkit/koa-host/plugin";
import type { Route } from "routing-kernel";
import { formatNumber } from "@fwkit/services";
import { assetStaticFolders } from "../assets.js";
import { adminNavigation } from "./admin/nav.js";
import { svgCaptchaVerifier } from "./captcha/svg.js";
import type { ContribSettings } from "./config.js";
import { checkContribDrivers } from "./drivers.js";
import { createI18n } from "./i18n/i18n.js";
import { MaintenanceFlag } from "./maintenance/flag.js";
import { pendingContribMigrations } from "./migrations.js";
import { createContribModels, findActiveUser, type BindableContribModels, type UserRow } from "./models.js";
import { isContribAdmin, maintenanceGate, maintenanceOnSlot, roleMiddleware } from "./plugin-guards.js";
import { contribKnex, contribRuntime, fixedLocals } from "./plugin-runtime.js";
import { setUpContrib } from "./plugin-setup.js";
import { checkContribProduction } from "./production-checks.js";
import { ROLE_TAG, type RoleRequirement } from "./roles.js";
import { localeOf, translatorOf, type ContribRuntime } from "./runtime.js";
import { E_CONTRIB_NOT_SET_UP } from "../errors.js";
import { PACKAGE_TEMPLATES } from "../paths.js";

/** Options of {@link fwbPlugin}. */
export interface FwbPluginOptions {
  readonly config: AppConfig;
  readonly settings: ContribSettings;
  readonly batteries: BatteryPlugins;
  /** Apply pending contrib and app migrations at start-up. */
  readonly migrate: boolean;
  /**
   * The contrib models, when the app made them before the plugin (its login manager's `loadUser`
   * reads the users with them); the plugin makes its own otherwise.
   */
  readonly models?: BindableContribModels;
}

/** The fw-b plugin and the contrib runtime it sets up. */
export interface FwbPlugin extends HostPlugin {
  /** The contrib runtime, made at the plugin's setup (refused before it). */
  readonly runtime: ContribRuntime;
  /** `loadUser` for the login manager when `contrib.auth` is on. */
  loadUser(id: string): Promise<UserRow | undefined>;
  /** The contrib mails, languages and translators the development mail previews (`/_mail`) show. */
  mailPreview(): {
    templateDirs: readonly string[];
    languages: readonly string[];
    translator(language: string): (key: string, values?: Readonly<Record<string, unknown>>) => string;
  };
  /** The contrib models of the modules that are on, for the console (`User`, `ContactMessage`). */
  consoleModels(): Readonly<Record<string, unknown>>;
}

const THEMES = new Set(["light", "dark"]);
/** The cookie the theme switch sets (fw-b.js). */
const THEME_COOKIE = "fwb_theme";

/**
 * fw-b's own plugin, always present: serves its front-end assets, picks the request's language,
 * gives templates `t`, `locale`, `theme` and the contrib flags, and, for the contrib modules that
 * are on, binds their models, runs migrations (`autoMigrate`), checks roles per route and answers
 * 503 while the site is in maintenance.
 */
export function fwbPlugin(options: FwbPluginOptions): FwbPlugin {
  const { config, settings, batteries } = options;
  // The optional packages of the modules that are on (svg-captcha, openid-client) are installed.
  checkContribDrivers(settings);
  const models = options.models ?? createContribModels();
  const i18n = createI18n(config.root, settings.i18n);
  // The app's prefix is decided with its config (the host's loadConfig, before the plugins are built).
  const basePath = config.basePath ?? "";
  const fixed = fixedLocals(settings, i18n, basePath);
  // Production needs a mailer and the public address for the modules that mail links: refused now.
  const baseUrl = checkContribProduction(config, settings, batteries);
  const maintenance = settings.maintenance
    ? new MaintenanceFlag(contribKnex(batteries), settings.maintenance.cacheMs)
    : undefined;
  const captcha = settings.captcha
    ? (settings.captcha.verifier ?? svgCaptchaVerifier(config.secretKey, settings.captcha))
    : undefined;
  // Made at setup, with what the host gives there (the route table for the admin menu, the logger).
  let started: ContribRuntime | undefined;
  const ready = (): ContribRuntime => {
    if (!started) throw new E_CONTRIB_NOT_SET_UP("The contrib runtime (before the fw-b plugin's setup)");
    return started;
  };

  return {
    name: "fw-b",
    get runtime() {
      return ready();
    },
    // The contrib mails (with the preview data beside them) in every language of the app.
    mailPreview: () => ({
      templateDirs: [PACKAGE_TEMPLATES],
      languages: i18n.languages,
      translator: (language: string) => i18n.translator(language),
    }),
    consoleModels: () => ({
      ...(settings.auth ? { User: models.users } : {}),
      ...(settings.contact ? { ContactMessage: models.contactMessages } : {}),
    }),
    loadUser: (id: string) => findActiveUser(models, id),

    async setup(context: PluginContext) {
      started = contribRuntime(
        { settings, batteries, models, i18n, captcha, maintenance, baseUrl },
        { adminNav: adminNavigation(context.table, settings, basePath), logger: context.logger },
      );
      await setUpContrib(context, { settings, batteries, models, migrate: options.migrate });
    },

    // Readiness (/readyz): the enabled modules' migrations are required as the app's own are: a
    // node whose contrib tables are behind its code fails on login, contact or maintenance.
    readiness() {
      const data = batteries.data;
      if (!settings.usesDatabase || !data) return [];
      const check = async () => {
        const pending = await pendingContribMigrations(data.database.knex, data.settings.migrationsDir, settings);
        return pending.length > 0 ? ("pending" as const) : ("ok" as const);
      };
      return [{ name: "contribMigrations", required: true, check }];
    },

    phases: {
      static() {
        return assetStaticFolders();
      },

      request(context) {
        // Requests pay for the maintenance gate only when that module is on; the language is
        // decided on first use (localeOf), the runtime found through the host (contribOf). The
        // request's translator is offered earlier, by translatorPlugin (before the batteries).
        if (!maintenance) return [];
        return [
          maintenanceGate(maintenance, ready(), {
            basePath,
            staticPrefix: config.static.prefix,
            responder: context.responder,
          }),
        ];
      },

      route(route: Route) {
        const requirement = route.tags[ROLE_TAG] as RoleRequirement | undefined;
        return requirement ? roleMiddleware(route, requirement, ready()) : undefined;
      },
    },

    locals(ctx: Context) {
      // Reading the theme cookie parses the Cookie header: only when the header names it.
      const theme = ctx.req.headers.cookie?.includes(THEME_COOKIE) ? ctx.cookies.get(THEME_COOKIE) : undefined;
      const isAdmin = isContribAdmin(ctx, settings);
      return {
        t: translatorOf(ctx),
        locale: localeOf(ctx) ?? i18n.fallback,
        // Numbers written the request's way (`1 234,5` in French), as fw-a's format_number.
        format_number: (value: number, options?: Intl.NumberFormatOptions) =>
          formatNumber(value, localeOf(ctx) ?? i18n.fallback, options),
        languages: fixed.languages,
        language_names: fixed.language_names,
        // Where the language switcher sends the visitor back to (this page, query included).
        current_path: ctx.originalUrl,
        theme: theme && THEMES.has(theme) ? theme : undefined,
        fwb_assets: fixed.fwb_assets,
        contrib: fixed.contrib,
        admin_nav: started?.adminNav ?? [],
        is_admin: isAdmin,
        // The banner is for admins, the only ones who see the site while it is closed; visitors of
        // the pages that stay open (login) must not see a notice meant for them.
        maintenance_on: isAdmin && maintenanceOnSlot.get(ctx) === true,
        base_path: basePath,
      };
    },
  };
}

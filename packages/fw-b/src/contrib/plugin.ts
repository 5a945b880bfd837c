import type { Context, Middleware } from "koa";
import { heldMessage } from "@fwkit/data/plugin";
import { HTTPError, type AppConfig, type ErrorInfo, type Responder } from "@fwkit/koa-host";
import { runtimeOf, type HostPlugin, type PluginContext } from "@fwkit/koa-host/plugin";
import { E_LOGIN_REQUIRED } from "@fwkit/security";
import { loginRedirectUrl, rejectsHtml } from "@fwkit/security/plugin";
import { type Route } from "routing-kernel";
import { isDataRoute } from "routing-kernel/plugin";
import { formatNumber } from "@fwkit/services";
import { assetStaticFolders, assetUrls } from "../assets.js";
import type { BatteryPlugins } from "@fwkit/app-kit";
import { E_CONTRIB_CONFIG, E_CONTRIB_NOT_MIGRATED, E_CONTRIB_NOT_SET_UP, E_MAINTENANCE, E_ROLE_WITHOUT_AUTH } from "../errors.js";
import { adminNavigation } from "./admin/nav.js";
import { svgCaptchaVerifier } from "./captcha/svg.js";
import type { ContribSettings } from "./config.js";
import { checkContribDrivers } from "./drivers.js";
import { checkContribProduction } from "./production-checks.js";
import { createI18n } from "./i18n/i18n.js";
import { languageSwitchOn } from "./i18n/switch.js";
import { MaintenanceFlag } from "./maintenance/flag.js";
import { isMaintenanceExempt } from "./maintenance/exempt.js";
import { migrateAll, pendingContribMigrations } from "./migrations.js";
import { CONTRIB_TABLES, createContribModels, isActive, type UserRow } from "./models.js";
import { ROLE_TAG, roleLevel, type RoleRequirement } from "./roles.js";
import { localeOf, translatorOf, type AdminNavItem, type ContribRuntime } from "./runtime.js";
import { PACKAGE_TEMPLATES } from "../paths.js";

/** Options of {@link fwbPlugin}. */
export interface FwbPluginOptions {
  readonly config: AppConfig;
  readonly settings: ContribSettings;
  readonly batteries: BatteryPlugins;
  /** Apply pending contrib and app migrations at start-up. */
  readonly migrate: boolean;
  /** The app's responder (known once the host built it), used to answer the maintenance page. */
  readonly responder: () => Responder | undefined;
}

/** The fw-b plugin and the contrib runtime it sets up. */
export interface FwbPlugin extends HostPlugin {
  readonly runtime: ContribRuntime;
  /** `loadUser` for the login manager when `contrib.auth` is on. */
  loadUser(id: string): Promise<UserRow | undefined>;
  /** The contrib mails, languages and translators the development mail previews (`/_mail`) show. */
  mailPreview(): { templateDirs: readonly string[]; languages: readonly string[]; translator(language: string): (key: string, values?: Readonly<Record<string, unknown>>) => string };
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
  const models = createContribModels();
  const i18n = createI18n(config.root, settings.i18n);
  const roles = settings.auth?.roles ?? {};
  const basePath = typeof config["basePath"] === "string" ? config["basePath"].replace(/\/+$/, "") : "";
  let adminNav: readonly AdminNavItem[] = [];
  let logger: PluginContext["logger"] | undefined;
  const maintenance = settings.maintenance ? new MaintenanceFlag(() => runtime.knex(), settings.maintenance.cacheMs) : undefined;
  const captcha = settings.captcha ? (settings.captcha.verifier ?? svgCaptchaVerifier(config.secretKey, settings.captcha)) : undefined;
  // Template values that never change for this app, made once.
  const fixed = Object.freeze({
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
      oauth: Object.entries(settings.oauth?.providers ?? {}).map(([name, provider]) => Object.freeze({ name, title: provider.title ?? name })),
    }),
  });

  // Production: a mailer and the public address for the modules that mail links (else refused here).
  const baseUrl = checkContribProduction(config, settings, batteries);
  const runtime: ContribRuntime = {
    settings,
    baseUrl,
    models,
    i18n,
    captcha,
    maintenance,
    get adminNav() {
      return adminNav;
    },
    get loginUrl() {
      return batteries.security?.config.loginUrl ?? "/login";
    },
    get logger() {
      if (!logger) throw new E_CONTRIB_NOT_SET_UP("The contrib runtime's logger");
      return logger;
    },
    knex: () => {
      if (!batteries.data) throw new E_CONTRIB_CONFIG("batteries.data", "the contrib modules need the data battery");
      return batteries.data.database.knex;
    },
    mailer: () => {
      if (!batteries.services) throw new E_CONTRIB_CONFIG("batteries.services", "the contrib modules need the services battery to send mail");
      return batteries.services.services.mailer;
    },
    hashPassword: (password) => {
      if (!batteries.security) throw new E_CONTRIB_CONFIG("batteries.security", "the contrib modules need the security battery");
      return batteries.security.hashPassword(password);
    },
  };

  const roleMiddleware = (route: Route, requirement: RoleRequirement): Middleware => {
    const data = isDataRoute(route);
    const needed = requirement.role ?? settings.auth?.adminRole ?? "admin";
    return async (ctx, next) => {
      const user = ctx.state["currentUser"] as { role?: unknown } | undefined;
      if (!user) {
        if (data || rejectsHtml(ctx)) throw new E_LOGIN_REQUIRED(runtime.loginUrl);
        ctx.redirect(loginRedirectUrl(runtime.loginUrl, ctx.originalUrl));
        return;
      }
      if (roleLevel(roles, user.role) < roleLevel(roles, needed)) throw HTTPError.Forbidden(translatorOf(ctx)("errors.role", { role: needed }));
      await next();
    };
  };

  const answerMaintenance = async (ctx: Context): Promise<void> => {
    const error = new E_MAINTENANCE();
    const message = translatorOf(ctx)("maintenance.message");
    // The gate runs before the view is matched: the route it is for decides the answer's kind
    // (JSON for a @renderJson view), as for every other error raised before the view.
    const route = (ctx.state["route"] as Route | undefined) ?? runtimeOf(ctx)?.lookupRoute(ctx)?.route;
    const info: ErrorInfo = { status: 503, message, error, ...(route ? { route } : {}) };
    ctx.status = 503;
    ctx.set("Retry-After", String(settings.maintenance!.retryAfter));
    ctx.set("Cache-Control", "no-store");
    const responder = options.responder();
    if (!responder) throw error;
    await responder.renderError(ctx, info);
    ctx.status = 503;
  };

  return {
    name: "fw-b",
    runtime,
    // The contrib mails (with the preview data beside them) in every language of the app.
    mailPreview: () => ({ templateDirs: [PACKAGE_TEMPLATES], languages: i18n.languages, translator: (language: string) => i18n.translator(language) }),
    async loadUser(id: string) {
      const user = await models.users.find(id);
      return user && isActive(user) ? user : undefined;
    },

    async setup(context: PluginContext) {
      logger = context.logger;
      const tagged = context.table.routes.find((route) => route.tags[ROLE_TAG] !== undefined);
      if (tagged && !settings.auth && !batteries.security) throw new E_ROLE_WITHOUT_AUTH(`${tagged.id}()`);
      adminNav = adminNavigation(context.table, settings, basePath);
      if (!settings.usesDatabase && !options.migrate) return;
      if (!batteries.data) {
        if (settings.usesDatabase) throw new E_CONTRIB_CONFIG("batteries.data", "contrib.auth, contact and maintenance keep their data in the database; keep the data battery on");
        return;
      }
      const knex = batteries.data.database.knex;
      models.bind(knex);
      if (options.migrate) {
        // Drafts (files still as :make-migration wrote them) wait until they are edited.
        const applied = await migrateAll(knex, batteries.data.settings.migrationsDir, settings, {
          holdDrafts: true,
          // Info, not a warning: the dev server shows it; a user command (logged at warn) need not.
          onHeld: (held) => context.logger.info({ migrations: held }, heldMessage(held)),
        });
        if (applied.length > 0) context.logger.info({ migrations: applied }, "migrations applied");
      }
      const needed = [
        ...(settings.auth ? [CONTRIB_TABLES.users, CONTRIB_TABLES.tokens] : []),
        ...(settings.oauth ? [CONTRIB_TABLES.oauthAccounts] : []),
        ...(settings.contact ? [CONTRIB_TABLES.contactMessages] : []),
        ...(settings.maintenance ? [CONTRIB_TABLES.settings] : []),
      ];
      for (const table of needed) if (!(await knex.schema.hasTable(table))) throw new E_CONTRIB_NOT_MIGRATED(table);
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

    staticFolders() {
      return assetStaticFolders();
    },

    middleware() {
      // Requests pay for the maintenance gate only when that module is on; the language is
      // decided on first use (localeOf), the runtime found through the host (contribOf). The
      // request's translator is offered earlier, by translatorPlugin (before the batteries).
      if (!maintenance) return [];
      const gate: Middleware = async (ctx, next) => {
        const on = await maintenance.isOn();
        ctx.state["maintenanceOn"] = on;
        if (!on || isMaintenanceExempt(ctx, runtime, basePath, config.static.prefix)) return next();
        const user = ctx.state["currentUser"] as { role?: unknown } | undefined;
        if (user && roleLevel(roles, user.role) >= roleLevel(roles, settings.auth?.adminRole ?? "admin")) return next();
        await answerMaintenance(ctx);
      };
      return [gate];
    },

    routeMiddleware(route: Route) {
      const requirement = route.tags[ROLE_TAG] as RoleRequirement | undefined;
      return requirement ? roleMiddleware(route, requirement) : undefined;
    },

    locals(ctx: Context) {
      // Reading the theme cookie parses the Cookie header: only when the header names it.
      const theme = ctx.req.headers.cookie?.includes(THEME_COOKIE) ? ctx.cookies.get(THEME_COOKIE) : undefined;
      const user = ctx.state["currentUser"] as { role?: unknown } | undefined;
      const isAdmin = Boolean(user && settings.auth && roleLevel(roles, user.role) >= roleLevel(roles, settings.auth.adminRole));
      return {
        t: translatorOf(ctx),
        locale: localeOf(ctx) ?? i18n.fallback,
        // Numbers written the request's way (`1 234,5` in French), as fw-a's format_number.
        format_number: (value: number, options?: Intl.NumberFormatOptions) => formatNumber(value, localeOf(ctx) ?? i18n.fallback, options),
        languages: fixed.languages,
        language_names: fixed.language_names,
        // Where the language switcher sends the visitor back to (this page, query included).
        current_path: ctx.originalUrl,
        theme: theme && THEMES.has(theme) ? theme : undefined,
        fwb_assets: fixed.fwb_assets,
        contrib: fixed.contrib,
        admin_nav: adminNav,
        is_admin: isAdmin,
        // The banner is for admins, the only ones who see the site while it is closed; visitors of
        // the pages that stay open (login) must not see a notice meant for them.
        maintenance_on: isAdmin && ctx.state["maintenanceOn"] === true,
        base_path: basePath,
      };
    },
  };
}

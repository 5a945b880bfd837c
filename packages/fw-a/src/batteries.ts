import type { AppConfig } from "@fwkit/koa-host";
import type { ConfigKeys, HostPlugin } from "@fwkit/koa-host/plugin";
import { dataPlugin } from "@fwkit/data";
import { DATA_CONFIG_KEYS } from "@fwkit/data/plugin";
import { securityPlugin, type CurrentUser, type SecurityPluginOptions } from "@fwkit/security";
import { SECURITY_CONFIG_KEYS } from "@fwkit/security/plugin";
import { servicesPlugin, translationsPlugin, type MailRenderer } from "@fwkit/services";
import { I18N_CONFIG_KEYS, SERVICES_CONFIG_KEYS, userSignalHooks } from "@fwkit/services/plugin";

/** The batteries' config keys, accepted at start-up also when a battery is switched off. */
export const BATTERY_CONFIG_KEYS: readonly ConfigKeys[] = Object.freeze([SECURITY_CONFIG_KEYS, DATA_CONFIG_KEYS, SERVICES_CONFIG_KEYS, I18N_CONFIG_KEYS]);

/** Which built-in batteries an app runs (config key `batteries`); all on by default. */
export interface BatterySwitches {
  /** Sessions, CSRF, login manager, JWT, CORS, security headers. */
  readonly security?: boolean;
  /** The database, models, flash messages, validation answers. */
  readonly data?: boolean;
  /** Mail, file storage, cache, signals, hashed static assets. */
  readonly services?: boolean;
}

/** How the login manager finds users (an app passes it to `defineApp({ auth })`). */
export type AuthOptions<User = CurrentUser> = Pick<SecurityPluginOptions<User>, "loadUser" | "userId" | "rememberFingerprint" | "sessionFingerprint" | "onLogin" | "onLogout">;

/**
 * The plugins every fw-a app starts with, in order: translations first (services'
 * translationsPlugin, the machinery fw-b's contrib uses too: `t`, `locale` and `format_number` in
 * templates, dates in the request's language; its middleware only offers the request's translator,
 * chosen when first used, so an error raised by any later middleware, such as a refused CSRF token,
 * still gets its page in the request's language), then security (session before anything that
 * needs it), data (flash needs the session) and services. `batteries: { data: false }` in config turns one off;
 * in development pending migrations are applied at start (`autoMigrate`).
 */
export function defaultPlugins(config: AppConfig, options: { auth?: AuthOptions; mailRenderer?: MailRenderer }): HostPlugin[] {
  const on = { security: true, data: true, services: true, ...(config["batteries"] as BatterySwitches | undefined) };
  const plugins: HostPlugin[] = [translationsPlugin()];
  // The login manager's events become the framework's signals (user.logged_in / user.logged_out).
  if (on.security) plugins.push(securityPlugin({ ...options.auth, ...userSignalHooks(options.auth) }));
  if (on.data) plugins.push(dataPlugin({ migrate: Boolean(config["autoMigrate"] ?? config.env === "development") }));
  const mailRenderer = options.mailRenderer;
  if (on.services) plugins.push(servicesPlugin(mailRenderer ? { mailRenderer: () => mailRenderer } : {}));
  return plugins;
}

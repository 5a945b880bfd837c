import type { AppConfig } from "@fwkit/koa-host";
import type { ConfigKeys, HostPlugin } from "@fwkit/koa-host/plugin";
import { dataPlugin, type DataPlugin } from "@fwkit/data";
import { DATA_CONFIG_KEYS } from "@fwkit/data/plugin";
import { securityPlugin, type SecurityPlugin, type CurrentUser, type SecurityPluginOptions } from "@fwkit/security";
import { SECURITY_CONFIG_KEYS } from "@fwkit/security/plugin";
import { servicesPlugin, type MailRenderer, type ServicesPlugin } from "@fwkit/services";
import { SERVICES_CONFIG_KEYS, userSignalHooks } from "@fwkit/services/plugin";

/** The batteries' config keys, accepted at start-up also when a battery is switched off. */
export const BATTERY_CONFIG_KEYS: readonly ConfigKeys[] = Object.freeze([SECURITY_CONFIG_KEYS, DATA_CONFIG_KEYS, SERVICES_CONFIG_KEYS]);

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

/** Options of {@link defaultPlugins}. */
export interface DefaultPluginOptions {
  /** How the login manager loads users. */
  readonly auth?: AuthOptions;
  /** Renders mail templates (fw-b: {@link pugMailRenderer}). */
  readonly mailRenderer?: MailRenderer;
  /** Run pending migrations at start-up (default: `autoMigrate` in config, else in development). */
  readonly migrate?: boolean;
}

/** The battery plugins, by name, as {@link batteryPlugins} built them (absent when switched off). */
export interface Batteries {
  readonly security?: SecurityPlugin;
  readonly data?: DataPlugin;
  readonly services?: ServicesPlugin;
}

/** The switches of `config.batteries`, all on unless set to false. */
export function batterySwitches(config: AppConfig): Required<BatterySwitches> {
  return { security: true, data: true, services: true, ...(config["batteries"] as BatterySwitches | undefined) };
}

/** True when pending migrations run at start-up: `autoMigrate` in config, else in development. */
export function autoMigrates(config: AppConfig): boolean {
  return Boolean(config["autoMigrate"] ?? config.env === "development");
}

/**
 * The battery plugins by name (for fw-b's own wiring, which needs the instances: contrib modules
 * use the database and the mailer they set up).
 */
export function batteryPlugins(config: AppConfig, options: DefaultPluginOptions = {}): Batteries {
  const on = batterySwitches(config);
  const mailRenderer = options.mailRenderer;
  return {
    // The login manager's events become the framework's signals (user.logged_in / user.logged_out).
    ...(on.security ? { security: securityPlugin({ ...options.auth, ...userSignalHooks(options.auth) }) } : {}),
    ...(on.data ? { data: dataPlugin({ migrate: options.migrate ?? autoMigrates(config) }) } : {}),
    ...(on.services ? { services: servicesPlugin(mailRenderer ? { mailRenderer: () => mailRenderer } : {}) } : {}),
  };
}

/**
 * The plugins every fw-b app starts with, in order: security (the session first: everything else
 * needs it), data (flash needs the session), services. `batteries: { data: false }` in config
 * turns one off; in development pending migrations are applied at start (`autoMigrate`).
 */
export function defaultPlugins(config: AppConfig, options: DefaultPluginOptions = {}): HostPlugin[] {
  const { security, data, services } = batteryPlugins(config, options);
  return [security, data, services].filter((plugin): plugin is NonNullable<typeof plugin> => plugin !== undefined);
}

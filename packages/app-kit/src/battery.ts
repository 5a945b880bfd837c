/**
 * A battery: a shared part both frameworks switch on by default (sessions and CSRF, the database,
 * mail and cache, and any added later), declared once as `{ key, configKeys, plugin }`. The key is
 * its switch in config (`batteries: { data: false }`); its config keys are accepted also while it is
 * switched off; `plugin` builds its HostPlugin when it is on.
 */
import type { AppConfig } from "@fwkit/koa-host";
import type { ConfigKeys, HostPlugin } from "@fwkit/koa-host/plugin";
import type { CurrentUser, SecurityPluginOptions } from "@fwkit/security";
import type { MailRenderer } from "@fwkit/services";
import { E_BATTERY_INVALID } from "./errors.js";

/** How the login manager finds users (an app passes it to `defineApp({ auth })`). */
export type AuthOptions<User = CurrentUser> = Pick<
  SecurityPluginOptions<User>,
  "loadUser" | "userId" | "rememberFingerprint" | "sessionFingerprint" | "onLogin" | "onLogout"
>;

/** What a battery's `plugin` gets: the app's config and what the framework and the app gave for it. */
export interface BatteryContext {
  /** The app's resolved config. */
  readonly config: AppConfig;
  /** How the login manager loads users (the app's `auth` option, or the framework's). */
  readonly auth?: AuthOptions;
  /** The framework's mail template renderer (Nunjucks for fw-a, Pug for fw-b). */
  readonly mailRenderer?: MailRenderer;
  /**
   * Whether this battery applies pending migrations at start-up: `autoMigrate` in config, else in
   * development; false when the framework applies them itself (fw-b's contrib modules).
   */
  readonly migrate: boolean;
}

/** One battery, as {@link defineBattery} declares it. */
export interface Battery<Key extends string = string, Plugin extends HostPlugin = HostPlugin> {
  /** Its switch in config: `batteries: { [key]: false }` turns it off. */
  readonly key: Key;
  /** The config keys it reads, accepted at start-up also while it is switched off. */
  readonly configKeys?: ConfigKeys;
  /** Builds its plugin for an app where it is on. */
  plugin(context: BatteryContext): Plugin;
}

const KEY = /^[A-Za-z][A-Za-z0-9]*$/;

/**
 * Declares a battery. Add it to `DEFAULT_BATTERIES` (this package) and every framework made with
 * `defineFramework` runs it, switchable in config, with no change in the frameworks.
 */
export function defineBattery<const Key extends string, Plugin extends HostPlugin>(
  battery: Battery<Key, Plugin>,
): Battery<Key, Plugin> {
  if (typeof battery?.key !== "string" || !KEY.test(battery.key))
    throw new E_BATTERY_INVALID(String(battery?.key), "its key is not a name");
  if (typeof battery.plugin !== "function") throw new E_BATTERY_INVALID(battery.key, "it has no plugin function");
  return Object.freeze({ ...battery });
}

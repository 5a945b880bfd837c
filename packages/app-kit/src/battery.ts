/**
 * A battery: a shared part both frameworks switch on by default (sessions and CSRF, the database,
 * mail and cache, and any added later), declared once as `{ key, config, state, plugin }`. The key is
 * its switch in config (`batteries: { data: false }`); `config` is its config schema
 * (`defineConfigSchema`), the one place its keys are written: their types, start-up check (also
 * while it is switched off), defaults, environment strings and docs rows follow from it; `state`
 * names the typed request slots it writes for others; `plugin` builds its HostPlugin when it is on.
 */
import type { AppConfig } from "@fwkit/koa-host";
import type { HostPlugin, Slot } from "@fwkit/koa-host/plugin";
import type { ConfigKeys, ConfigSchema } from "@fwkit/koa-host/config-schema";
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

/** What {@link defineBattery} is given. */
export interface BatteryDeclaration<Key extends string = string, Plugin extends HostPlugin = HostPlugin> {
  /** Its switch in config: `batteries: { [key]: false }` turns it off. */
  readonly key: Key;
  /** Its config keys, declared once (`defineConfigSchema`); a battery that reads none leaves it out. */
  // biome-ignore lint/suspicious/noExplicitAny: any battery's schema
  readonly config?: ConfigSchema<any>;
  /** The request slots it writes for other packages (`{ currentUser: currentUserSlot }`), typed. */
  readonly state?: Readonly<Record<string, Slot<unknown>>>;
  /** Builds its plugin for an app where it is on. */
  plugin(context: BatteryContext): Plugin;
}

/** One battery, as {@link defineBattery} declares it. */
export interface Battery<Key extends string = string, Plugin extends HostPlugin = HostPlugin>
  extends BatteryDeclaration<Key, Plugin> {
  /** The keys of its schema, accepted at start-up also while it is switched off. */
  readonly configKeys: ConfigKeys;
  /** The request slots it writes (none: empty). */
  readonly state: Readonly<Record<string, Slot<unknown>>>;
}

const KEY = /^[A-Za-z][A-Za-z0-9]*$/;

/**
 * Declares a battery. Add it to `DEFAULT_BATTERIES` (this package) and every framework made with
 * `defineFramework` runs it, switchable in config, with no change in the frameworks.
 */
export function defineBattery<const Key extends string, Plugin extends HostPlugin>(
  battery: BatteryDeclaration<Key, Plugin>,
): Battery<Key, Plugin> {
  if (typeof battery?.key !== "string" || !KEY.test(battery.key))
    throw new E_BATTERY_INVALID(String(battery?.key), "its key is not a name");
  if (typeof battery.plugin !== "function") throw new E_BATTERY_INVALID(battery.key, "it has no plugin function");
  if (battery.config !== undefined && typeof battery.config.configKeys !== "object")
    throw new E_BATTERY_INVALID(battery.key, "its config is not a schema made with defineConfigSchema");
  return Object.freeze({
    ...battery,
    configKeys: battery.config?.configKeys ?? Object.freeze({}),
    state: Object.freeze({ ...battery.state }),
  });
}

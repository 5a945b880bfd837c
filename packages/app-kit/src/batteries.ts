/**
 * The batteries every framework made with `defineFramework` runs, on by default and switched off
 * one by one in config (`batteries: { data: false }`). This list is the one place a battery is
 * added for both frameworks: its entry gives its switch, its config schema and its plugin.
 */
import type { AppConfig } from "@fwkit/koa-host";
import type { HostPlugin } from "@fwkit/koa-host/plugin";
import type { ConfigKeys } from "@fwkit/koa-host/config-schema";
import { dataPlugin } from "@fwkit/data";
import { observabilityConfigSchema, observabilityPlugin } from "@fwkit/observability";
import { dataConfigSchema, dbSlot } from "@fwkit/data/battery";
import { securityPlugin } from "@fwkit/security";
import { securityConfigSchema } from "@fwkit/security/plugin";
import { servicesPlugin } from "@fwkit/services";
import { servicesConfigSchema, servicesSlot, userSignalHooks } from "@fwkit/services/battery";
import { defineBattery, type Battery, type BatteryContext } from "./battery.js";
import { E_BATTERY_SWITCH, E_BATTERY_TWICE } from "./errors.js";
import { jobsBattery, rememberServices } from "./jobs-battery.js";
import { realtimeConfigSchema, realtimePlugin } from "@fwkit/realtime";

/**
 * Prometheus metrics, OpenTelemetry traces and request context on log lines; each part off until
 * config (`metrics`, `tracing`, `logContext`) or the `OTEL_*` variables switch it on, and then
 * nothing of it is installed.
 */
export const observabilityBattery = defineBattery({
  key: "observability",
  config: observabilityConfigSchema,
  plugin: ({ config }) => observabilityPlugin({ config }),
});

/** Sessions, CSRF, login manager, JWT, CORS, security headers. */
export const securityBattery = defineBattery({
  key: "security",
  config: securityConfigSchema,
  // The login manager's events become the framework's signals (user.logged_in / user.logged_out).
  plugin: ({ auth }) => securityPlugin({ ...auth, ...userSignalHooks(auth) }),
});

/** The database, models, flash messages, validation answers. */
export const dataBattery = defineBattery({
  key: "data",
  config: dataConfigSchema,
  state: { db: dbSlot },
  plugin: ({ migrate }) => dataPlugin({ migrate }),
});

/** Mail, file storage, cache, signals, hashed static assets. */
export const servicesBattery = defineBattery({
  key: "services",
  config: servicesConfigSchema,
  state: { services: servicesSlot },
  // Remembered for the jobs battery: the kit's mail job delivers through this app's mailer.
  plugin: (context) =>
    rememberServices(
      context,
      servicesPlugin(context.mailRenderer ? { mailRenderer: () => context.mailRenderer! } : {}),
    ),
});

/**
 * Channels pushed to browsers (server-sent events at `/_events`), on `REALTIME_URL`: nothing of it
 * is installed until `realtime.channels` declares a channel.
 */
export const realtimeBattery = defineBattery({
  key: "realtime",
  config: realtimeConfigSchema,
  plugin: () => realtimePlugin(),
});

/**
 * The built-in batteries, in the order their plugins run: observability first (its span and
 * metrics wrap the whole request, and tracing starts before the others load their drivers), then
 * security (the session, which everything after needs), data (flash needs the session), services,
 * jobs (its mail job uses the services' mailer), realtime (its streams see the session's user).
 */
export const DEFAULT_BATTERIES = Object.freeze([
  observabilityBattery,
  securityBattery,
  dataBattery,
  servicesBattery,
  jobsBattery,
  realtimeBattery,
] as const);

type DefaultBattery = (typeof DEFAULT_BATTERIES)[number];

type DefaultSwitches = { readonly [B in DefaultBattery as B["key"]]?: boolean };

/**
 * Which batteries an app runs (config key `batteries`): every one is on unless set to false. A
 * battery registered from outside this package adds its switch by module augmentation
 * (`declare module "@fwkit/app-kit" { interface BatterySwitches { jobs?: boolean } }`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface -- the built-in switches, open for augmentation
export interface BatterySwitches extends DefaultSwitches {}

/** The plugins of the batteries that are on, by key (a built-in battery's plugin keeps its type). */
export type BatteryPlugins = { readonly [B in DefaultBattery as B["key"]]?: ReturnType<B["plugin"]> } & {
  readonly [key: string]: HostPlugin | undefined;
};

const registered: Battery[] = [];

/**
 * Adds a battery to every framework made with `defineFramework`, after the built-in ones, for the
 * apps built from now on; returns the function that removes it again. For a battery outside this
 * package (an app's own, a test's); a battery of the kit goes into {@link DEFAULT_BATTERIES}.
 */
export function registerBattery(battery: Battery): () => void {
  if (allBatteries().some((known) => known.key === battery.key)) throw new E_BATTERY_TWICE(battery.key);
  registered.push(battery);
  return () => {
    const at = registered.indexOf(battery);
    if (at >= 0) registered.splice(at, 1);
  };
}

/** The built-in batteries, then the registered ones, in the order their plugins run. */
export function allBatteries(): readonly Battery[] {
  return [...DEFAULT_BATTERIES, ...registered];
}

/** The `batteries` block of the config keys: one switch per battery. */
export function batterySwitchKeys(batteries: readonly Battery[]): ConfigKeys {
  return { batteries: Object.freeze(Object.fromEntries(batteries.map((battery) => [battery.key, true as const]))) };
}

/** The switches of `config.batteries`, every battery on unless set to false; a value that is not a boolean is refused. */
export function batterySwitches(
  config: AppConfig,
  batteries: readonly Battery[] = allBatteries(),
): Readonly<Record<string, boolean>> {
  const given = (config["batteries"] ?? {}) as Readonly<Record<string, unknown>>;
  const known = batteries.map((battery) => battery.key);
  const switches: Record<string, boolean> = Object.fromEntries(known.map((key) => [key, true]));
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    if (!known.includes(key) || typeof value !== "boolean") throw new E_BATTERY_SWITCH(key, known);
    switches[key] = value;
  }
  return switches;
}

/** Builds the plugins of the batteries that are on, by key, in the batteries' order. */
export function batteryPlugins(
  context: BatteryContext,
  batteries: readonly Battery[] = allBatteries(),
): BatteryPlugins {
  const on = batterySwitches(context.config, batteries);
  const plugins: Record<string, HostPlugin> = {};
  for (const battery of batteries) if (on[battery.key]) plugins[battery.key] = battery.plugin(context);
  return plugins as BatteryPlugins;
}

/**
 * The config keys every framework made with `defineFramework` reads the same way, declared once:
 * `batteries` (one switch per battery) and `autoMigrate`. The app-facing type (added to the host's
 * `AppConfig` by module augmentation like a battery's keys, so `defineConfig({ batteries: { data:
 * false } })` is typed in both frameworks), the start-up check and the docs rows follow from it.
 */
import type { AppConfig } from "@fwkit/koa-host";
import { defineConfigSchema, type InputOf, key } from "@fwkit/koa-host/config-schema";
import { DEFAULT_BATTERIES, type BatterySwitches } from "./batteries.js";
import { E_FRAMEWORK_CONFIG_INVALID } from "./errors.js";

/** The keys both frameworks read (a registered battery's switch is added when an app is built). */
export const frameworkConfigSchema = defineConfigSchema(
  {
    batteries: key.custom<BatterySwitches>({
      doc: "Which batteries run; all on by default (`{ data: false }` turns the database off).",
      kind: "battery -> true or false",
      keys: DEFAULT_BATTERIES.map((battery) => battery.key),
      // Checked by batterySwitches (batteries.ts), which knows the registered batteries too.
      read: (value) => value as BatterySwitches,
    }),
    autoMigrate: key.bool({
      doc: "Run pending migrations at start-up.",
      defaultText: "`true` in development",
    }),
  },
  { invalid: (path, expected, value) => new E_FRAMEWORK_CONFIG_INVALID(path, expected, value) },
);

/** The keys of {@link frameworkConfigSchema}, for the start-up check. */
export const FRAMEWORK_CONFIG_KEYS = frameworkConfigSchema.configKeys;

/** The keys both frameworks read, as an app writes them. */
export type FrameworkAppConfig = InputOf<typeof frameworkConfigSchema>;

/** True when pending migrations run at start-up: `autoMigrate` in config, else in development. */
export function autoMigrates(config: AppConfig): boolean {
  return frameworkConfigSchema.resolveKey("autoMigrate", config, { env: {} }) ?? config.env === "development";
}

declare module "@fwkit/koa-host" {
  // eslint-disable-next-line @typescript-eslint/no-empty-interface -- the merge is the point
  interface AppConfig extends FrameworkAppConfig {}
}

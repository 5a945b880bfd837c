/**
 * The config keys every framework made with `defineFramework` reads the same way: `batteries` (one
 * switch per battery) and `autoMigrate`, added to the host's `AppConfig` by module augmentation like
 * a battery's keys, so `defineConfig({ batteries: { data: false } })` is typed in both frameworks.
 */
import type {} from "@fwkit/koa-host";
import type { ConfigKeysAgree } from "@fwkit/koa-host/plugin";
import { DEFAULT_BATTERIES, type BatterySwitches } from "./batteries.js";

type DefaultKey = (typeof DEFAULT_BATTERIES)[number]["key"];

/**
 * The keys of {@link FrameworkAppConfig} with the built-in batteries' switches, for the start-up
 * check (a registered battery's switch is added when an app is built).
 */
export const FRAMEWORK_CONFIG_KEYS = Object.freeze({
  batteries: Object.freeze(Object.fromEntries(DEFAULT_BATTERIES.map((battery) => [battery.key, true]))) as {
    readonly [Key in DefaultKey]: true;
  },
  autoMigrate: true,
} as const);

/** The keys both frameworks read, as an app writes them. */
export interface FrameworkAppConfig {
  /** Which batteries run; all on by default (`{ data: false }` turns the database off). */
  readonly batteries?: BatterySwitches;
  /** Run pending migrations at start-up (default: in development). */
  readonly autoMigrate?: boolean;
}

// Compile-time: the start-up check's declaration lists exactly these keys.
const keysAgree: ConfigKeysAgree<typeof FRAMEWORK_CONFIG_KEYS, FrameworkAppConfig> = true;
void keysAgree;

declare module "@fwkit/koa-host" {
  // eslint-disable-next-line @typescript-eslint/no-empty-interface -- the merge is the point
  interface AppConfig extends FrameworkAppConfig {}
}

/**
 * fw-b's own keys in an app's config (`siteName`, `contrib`), added to `AppConfig` of
 * `@fwkit/koa-host` by module augmentation like the batteries' keys, so a misspelt key in
 * `defineConfig({...})` is a compile error. `FWB_CONFIG_KEYS` and `CONTRIB_CONFIG_KEYS` declare the
 * same keys for the start-up check; the compile-time checks below keep the lists equal.
 */
// The module augmented below must be part of the program.
import type {} from "@fwkit/koa-host";
import type { ConfigKeysAgree } from "@fwkit/koa-host/plugin";
import type { CONTRIB_CONFIG_KEYS, ContribConfig } from "./contrib/config.js";

/** fw-b's keys besides `contrib`, for the host's start-up check of unknown keys. */
export const FWB_CONFIG_KEYS = Object.freeze({ siteName: true } as const);

/** The config keys fw-b reads, as an app writes them (see docs/fw-b.md and docs/fw-b-contrib.md). */
export interface FwBAppConfig {
  /** The site's name in the layout and in mail. */
  readonly siteName?: string;
  /** The contrib modules: `{ auth: true, admin: true, contact: { recipients: [...] } }`. */
  readonly contrib?: ContribConfig;
}

// Compile-time: the start-up check's declarations list exactly these keys.
const fwbKeysAgree: ConfigKeysAgree<typeof FWB_CONFIG_KEYS, Omit<FwBAppConfig, "contrib">> = true;
const contribKeysAgree: ConfigKeysAgree<typeof CONTRIB_CONFIG_KEYS, Pick<FwBAppConfig, "contrib">> = true;
void fwbKeysAgree;
void contribKeysAgree;

declare module "@fwkit/koa-host" {
  // eslint-disable-next-line @typescript-eslint/no-empty-interface -- the merge is the point
  interface AppConfig extends FwBAppConfig {}
}

/**
 * The services battery's keys (and the translations plugin's `i18n`) in an app's config, added to
 * `AppConfig` of `@fwkit/koa-host` by module augmentation, so `defineConfig({...})` knows them and a
 * misspelt key is a compile error. `SERVICES_CONFIG_KEYS` and `I18N_CONFIG_KEYS` declare the same
 * keys for the start-up check; the compile-time checks below keep the lists equal. `mailUrl`,
 * `mailFrom`, `storageUrl`, `cacheUrl`, `redisUrl` and `static` are the host's keys, typed there.
 */
// The module augmented below must be part of the program.
import type {} from "@fwkit/koa-host";
import type { ConfigKeysAgree } from "@fwkit/koa-host/plugin";
import type { BundleDeclarations } from "./assets/bundle.js";
import type { SERVICES_CONFIG_KEYS } from "./config.js";
import type { I18N_CONFIG_KEYS } from "./i18n/plugin.js";
import type { Services } from "./plugin.js";

/** The config keys the services battery reads, as an app writes them (see docs/services.md). */
export interface ServicesAppConfig {
  /** Uploads: largest file in bytes, accepted MIME types, URL prefix of public files. */
  readonly storage?: {
    readonly publicPath?: string;
    readonly maxBytes?: number;
    readonly allowedTypes?: readonly string[];
  };
  /** The response cache: requests carrying `sessionCookie` are never served from it. */
  readonly cache?: { readonly sessionCookie?: string };
  /** Name of the session cookie (the response cache skips requests carrying it). */
  readonly sessionCookie?: string;
  /** The Redis that carries signals across processes (default `redisUrl`). */
  readonly signalsUrl?: string;
  /** The signals that cross processes, and their channel prefix. */
  readonly signals?: { readonly names?: readonly string[]; readonly prefix?: string };
  /** Hashed static assets: `max-age`, bundles (`"app.js": ["src/a.js"]`) and their output folder. */
  readonly assets?: { readonly maxAge?: number; readonly bundles?: BundleDeclarations; readonly outDir?: string };
}

/** The translations plugin's key (fw-a turns the plugin on; see docs/services.md). */
export interface I18nAppConfig {
  /** Languages offered and the one used when nothing else matches. */
  readonly i18n?: { readonly languages?: readonly string[]; readonly fallback?: string };
}

// Compile-time: the start-up check's declarations list exactly these keys.
const servicesKeysAgree: ConfigKeysAgree<typeof SERVICES_CONFIG_KEYS, ServicesAppConfig> = true;
const i18nKeysAgree: ConfigKeysAgree<typeof I18N_CONFIG_KEYS, I18nAppConfig> = true;
void servicesKeysAgree;
void i18nKeysAgree;

declare module "@fwkit/koa-host" {
  // eslint-disable-next-line @typescript-eslint/no-empty-interface -- the merge is the point
  interface AppConfig extends ServicesAppConfig, I18nAppConfig {}
  /** A job's `context.services`: the mailer, storage, cache... this battery builds. */
  interface AppServices extends Services {}
}

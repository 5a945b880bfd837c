/**
 * The data battery's keys in an app's config, added to `AppConfig` of `@fwkit/koa-host` by module
 * augmentation, so `defineConfig({...})` knows them and a misspelt key is a compile error.
 * `DATA_CONFIG_KEYS` (config.ts) declares the same keys for the start-up check; a compile-time
 * check below keeps the two lists equal. `dbUrl` and `timezone` are the host's keys (environment
 * variables set them), typed there.
 */
// The module augmented below must be part of the program.
import type {} from "@fwkit/koa-host";
import type { ConfigKeysAgree } from "@fwkit/koa-host/plugin";
import type { DATA_CONFIG_KEYS } from "./config.js";

/** The config keys the data battery reads, as an app writes them (see docs/data.md). */
export interface DataAppConfig {
  /** Pool size for PostgreSQL/MySQL. */
  readonly dbPool?: { readonly min?: number; readonly max?: number };
  /** Migrations folder, relative to the root (default `migrations`). */
  readonly migrationsDir?: string;
  /** Default dayjs format of `formatDate`. */
  readonly dateFormat?: string;
  /** Largest `perPage` a client may ask for (default 100). */
  readonly maxPerPage?: number;
}

// Compile-time: DATA_CONFIG_KEYS (the start-up check's declaration) lists exactly these keys.
const typedKeysAgree: ConfigKeysAgree<typeof DATA_CONFIG_KEYS, DataAppConfig> = true;
void typedKeysAgree;

declare module "@fwkit/koa-host" {
  // eslint-disable-next-line @typescript-eslint/no-empty-interface -- the merge is the point
  interface AppConfig extends DataAppConfig {}
}

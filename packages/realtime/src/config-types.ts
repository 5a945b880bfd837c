/**
 * The realtime battery's keys in an app's config, added to `AppConfig` of `@fwkit/koa-host` by
 * module augmentation, so `defineConfig({ realtime: {...} })` is checked at compile time.
 * `realtimeUrl` (`REALTIME_URL`) is the host's key, typed there.
 */
import type {} from "@fwkit/koa-host";
import type { ConfigKeysAgree } from "@fwkit/koa-host/plugin";
import type { REALTIME_CONFIG_KEYS, RealtimeConfigBlock } from "./config.js";

/** The config keys the realtime battery reads, as an app writes them (see docs/realtime.md). */
export interface RealtimeAppConfig {
  /** Channels, the stream's path, the replay window, heartbeats and limits. */
  readonly realtime?: RealtimeConfigBlock;
}

// Compile-time: the start-up check's declaration lists exactly these keys.
const realtimeKeysAgree: ConfigKeysAgree<typeof REALTIME_CONFIG_KEYS, RealtimeAppConfig> = true;
void realtimeKeysAgree;

declare module "@fwkit/koa-host" {
  // eslint-disable-next-line @typescript-eslint/no-empty-interface -- the merge is the point
  interface AppConfig extends RealtimeAppConfig {}
}

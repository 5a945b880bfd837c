/**
 * The app's services on a request (`ctx.state.services`): their shape and the typed slot views and
 * templates read them through. Apart from the plugin, so the app kit names the slot without loading
 * what the plugin builds the services from.
 */
import { defineStateSlot } from "@fwkit/koa-host/plugin";
import type { AssetManifest } from "./assets/manifest.js";
import type { Cache } from "./cache/cache.js";
import type { ServicesConfig } from "./config.js";
import type { Mailer } from "./mail/mailer.js";
import type { SignalBridge } from "./signals/bridge.js";
import type { SignalRegistry } from "./signals/signal.js";
import type { Storage } from "./storage/storage.js";

/** The services built at start-up, for views (`ctx.state.services`) and for the framework. */
export interface Services {
  /** Rejects with `E_SERVICE_NOT_CONFIGURED` when `mailUrl` or `mailFrom` is not set. */
  readonly mailer: Mailer;
  readonly storage: Storage;
  readonly cache: Cache;
  readonly assets: AssetManifest;
  readonly signals: SignalRegistry;
  /** The Redis bridge, when `signals.names` and a Redis URL are configured. */
  readonly bridge?: SignalBridge;
  /** The config the services were built from. */
  readonly config: ServicesConfig;
}

/**
 * The app's services on a request, a typed slot on `ctx.state` under the key views and templates
 * read (`ctx.state.services`); the app kit's view base class reads it through the slot.
 */
export const servicesSlot = defineStateSlot<Services>("services");

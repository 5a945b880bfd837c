/**
 * @module services/battery
 * What a framework assembles the services battery from at start-up, and nothing more: its config
 * schemas, the request slot of its services, the login events as signals, the signal registry, the
 * response-cache decorator, the mail settings check and the session key of the chosen language. Importing it loads none of what the plugin builds the services from
 * (mail, storage, assets, previews), which load in the plugin's `setup`, when the battery is on.
 */
export { makeCacheDecorator } from "./cache/decorator.js";
// The translations a framework's own pages use (the battery's catalogs, the app's locale files).
export {
  acceptedLanguages,
  BATTERY_CATALOGS,
  LANGUAGE_SESSION_KEY,
  LANGUAGE_TAG,
  readLocaleFiles,
  translatorStateGetters,
  type LanguageHints,
} from "./i18n/index.js";
export { requireMailer } from "./mail/required.js";
export { i18nConfigSchema, servicesConfigSchema } from "./config-schema.js";
export { servicesSlot, type Services } from "./services-slot.js";
export { userSignalHooks, type LoginHooks } from "./signals/user-signals.js";
export { defaultRegistry, type SignalRegistry } from "./signals/signal.js";

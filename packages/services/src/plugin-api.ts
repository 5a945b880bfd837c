/**
 * @module @fwkit/services/plugin
 * What plugin authors and the sibling packages (the frameworks, the batteries) build on: not the
 * API of an app. Apps import `@fwkit/services`; this subpath may change in a minor release. The
 * asset build steps, the stores, drivers and transports behind the URLs, the mail template reader
 * and the language negotiation the frameworks wrap are here too.
 */
export { prepareAssets, type AssetsConfig, type PrepareAssetsOptions } from "./assets/assets.js";
export { buildBundles, type BundleOptions } from "./assets/bundle.js";
export {
  createManifest,
  hashedName,
  type AssetEntry,
  type AssetManifest,
  type AssetMatch,
  type AssetSource,
  type ManifestOptions,
} from "./assets/manifest.js";
export { safeAssetPath, serveAssets, type ServeAssetsOptions } from "./assets/serve.js";
export { cacheOver, DEFAULT_CACHE_URL } from "./cache/cache.js";
export { MemoryStore } from "./cache/stores/memory.js";
export { RedisStore } from "./cache/stores/redis.js";
export { CACHE_TAG, cacheResponse, cacheTagOf, makeCacheDecorator, type CacheTag } from "./cache/decorator.js";
export { responseCache, responseCacheKey, type ResponseCacheOptions } from "./cache/response.js";
export { readServicesConfig, SERVICES_CONFIG_KEYS, type ServicesConfig } from "./config.js";
export { i18nConfigSchema, servicesConfigSchema } from "./config-schema.js";
export { consoleLogger, type ServiceLogger } from "./logger.js";
export { createMailTransport } from "./mail/create-transport.js";
export { requireMailer } from "./mail/required.js";
export { mailPart, mailTemplateFiles, renderMail, type MailTemplateFiles } from "./mail/templates.js";
export { MAIL_PREVIEW_PATH, mailPreviewMiddleware, type MailPreviewHints } from "./mail/previews/index.js";
export { CAUGHT_MAILS_KEPT, type CaughtMail } from "./mail/transports/log.js";
export { MemoryTransport, type SentMail } from "./mail/transports/memory.js";
export { SesTransport } from "./mail/transports/ses.js";
export { SmtpTransport } from "./mail/transports/smtp.js";
export { bridgeSignals, type BridgeOptions, type SignalBridge } from "./signals/bridge.js";
export { servicesSlot } from "./plugin.js";
export { requestSignals } from "./signals/request-signals.js";
export { userSignalHooks, type LoginHooks } from "./signals/user-signals.js";
export { defaultRegistry } from "./signals/signal.js";
export { createStorageDriver, DEFAULT_STORAGE_URL, type DriverContext } from "./storage/create-driver.js";
export { LocalDriver, type LocalDriverOptions } from "./storage/drivers/local.js";
export { S3StorageDriver, type S3DriverOptions } from "./storage/drivers/s3.js";
export { checkKey, typeOfKey, uploadKey } from "./storage/keys.js";
export { checkSize, checkType, DEFAULT_LIMITS } from "./storage/limits.js";
export { serveStorage } from "./storage/serve.js";
export { UrlSigner, type SignedQuery } from "./storage/signing.js";
export {
  acceptedLanguages,
  BATTERY_CATALOGS,
  compareCatalogs,
  I18N_CONFIG_KEYS,
  LANGUAGE_SESSION_KEY,
  LANGUAGE_TAG,
  matchLanguage,
  negotiateLanguage,
  placeholders,
  readLocaleFiles,
  requestLocale,
  translatorStateGetters,
  type LanguageHints,
} from "./i18n/index.js";

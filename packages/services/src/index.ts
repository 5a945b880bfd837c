/**
 * @module services
 * Mail, file storage, caching, signals and web assets for koa-host apps, framework-agnostic:
 * plain functions, Koa middleware, a TC39 decorator tag and one host plugin. fw-a and fw-b
 * re-export them in their own idiom.
 */
export { prepareAssets, type AssetsConfig, type PrepareAssetsOptions } from "./assets/assets.js";
export { buildBundles, type BundleDeclarations, type BundleOptions } from "./assets/bundle.js";
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
export { cacheOver, createCache, DEFAULT_CACHE_URL, type Cache, type CacheOptions } from "./cache/cache.js";
export { CACHE_TAG, cacheResponse, cacheTagOf, makeCacheDecorator, type CacheTag } from "./cache/decorator.js";
export { responseCache, responseCacheKey, type ResponseCacheOptions } from "./cache/response.js";
export type { CacheStore } from "./cache/store.js";
export { MemoryStore } from "./cache/stores/memory.js";
export { RedisStore } from "./cache/stores/redis.js";
export { readServicesConfig, SERVICES_CONFIG_KEYS, type ServicesConfig } from "./config.js";
export type { I18nAppConfig, ServicesAppConfig } from "./config-types.js";
export * from "./errors.js";
export { consoleLogger, type ServiceLogger } from "./logger.js";
export { createMailTransport } from "./mail/create-transport.js";
export { createMailer, type Mailer, type MailerOptions, type MailSendError, type SendMailOptions } from "./mail/mailer.js";
export { mailPart, mailTemplateFiles, renderMail, type MailPart, type MailRenderer, type MailTemplateFiles, type RenderedMail } from "./mail/templates.js";
export type { MailAttachment, MailInfo, MailTransport, OutgoingMail } from "./mail/transport.js";
export { SesTransport } from "./mail/transports/ses.js";
export { SmtpTransport } from "./mail/transports/smtp.js";
export { renderMarkdown, renderTrustedMarkdown, type MarkdownOptions } from "./markdown/render.js";
export { servicesPlugin, type Services, type ServicesPlugin, type ServicesPluginOptions } from "./plugin.js";
export { bridgeSignals, type BridgeOptions, type SignalBridge } from "./signals/bridge.js";
export {
  signal,
  SIGNALS,
  type FileStoredPayload,
  type FrameworkSignals,
  type MailSentPayload,
  type RequestFinishedPayload,
  type RequestStartedPayload,
  type UserSignalPayload,
} from "./signals/names.js";
export { requestSignals } from "./signals/request-signals.js";
export { userSignalHooks, type LoginHooks } from "./signals/user-signals.js";
export {
  defaultRegistry,
  SignalRegistry,
  type Receiver,
  type Signal,
  type SignalMeta,
  type SignalOrigin,
} from "./signals/signal.js";
export { createStorageDriver, DEFAULT_STORAGE_URL, type DriverContext } from "./storage/create-driver.js";
export type { StorageDriver, Visibility } from "./storage/driver.js";
export { LocalDriver, type LocalDriverOptions } from "./storage/drivers/local.js";
export { S3StorageDriver, type S3DriverOptions } from "./storage/drivers/s3.js";
export { checkKey, typeOfKey, uploadKey } from "./storage/keys.js";
export { checkSize, checkType, DEFAULT_LIMITS, type StorageLimits } from "./storage/limits.js";
export { serveStorage } from "./storage/serve.js";
export type { StorageListing, StorageListOptions } from "./storage/listing.js";
export { UrlSigner, type SignedQuery } from "./storage/signing.js";
export { createStorage, type Storage, type StorageOptions, type StoredFile, type UploadedFile } from "./storage/storage.js";
export {
  acceptedLanguages,
  BATTERY_CATALOGS,
  chooseLanguage,
  compareCatalogs,
  createTranslations,
  formatNumber,
  I18N_CONFIG_KEYS,
  LANGUAGE_SESSION_KEY,
  LANGUAGE_TAG,
  matchLanguage,
  negotiateLanguage,
  placeholders,
  readLocaleFiles,
  requestLocale,
  requestTranslatorMiddleware,
  translationsPlugin,
  type Catalog,
  type LanguageHints,
  type Translate,
  type Translations,
  type TranslationsOptions,
  type TranslationsPlugin,
} from "./i18n/index.js";

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
export { createCache, type Cache, type CacheOptions } from "./cache/cache.js";
export type { CacheStore } from "./cache/store.js";
export { MemoryStore } from "./cache/stores/memory.js";
export { RedisStore } from "./cache/stores/redis.js";
export type { I18nAppConfig, ServicesAppConfig } from "./config-schema.js";
// AppServices gains this battery's services (module augmentation).
import "./app-services.js";
export * from "./errors.js";
export {
  createMailer,
  type ComposedMail,
  type Mailer,
  type MailerOptions,
  type MailSendError,
  type SendMailOptions,
} from "./mail/mailer.js";
export {
  mailPart,
  mailTemplateFiles,
  renderMail,
  type MailPart,
  type MailRenderer,
  type MailTemplateFiles,
  type RenderedMail,
} from "./mail/templates.js";
export type { MailAttachment, MailInfo, MailTransport, OutgoingMail } from "./mail/transport.js";
export { MemoryTransport, type SentMail } from "./mail/transports/memory.js";
export { SesTransport } from "./mail/transports/ses.js";
export { SmtpTransport } from "./mail/transports/smtp.js";
export { renderMarkdown, renderTrustedMarkdown, type MarkdownOptions } from "./markdown/render.js";
export { servicesPlugin, type Services, type ServicesPlugin, type ServicesPluginOptions } from "./plugin.js";
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
export {
  SignalRegistry,
  type ConnectOptions,
  type Receiver,
  type Signal,
  type SignalMeta,
  type SignalOrigin,
  type SignalQueue,
} from "./signals/signal.js";
export type { StorageDriver, Visibility } from "./storage/driver.js";
export { LocalDriver, type LocalDriverOptions } from "./storage/drivers/local.js";
export { S3StorageDriver, type S3DriverOptions } from "./storage/drivers/s3.js";
export type { StorageLimits } from "./storage/limits.js";
export type { StorageListing, StorageListOptions } from "./storage/listing.js";
export {
  createStorage,
  type Storage,
  type StorageOptions,
  type StoredFile,
  type UploadedFile,
} from "./storage/storage.js";
export {
  acceptedLanguages,
  chooseLanguage,
  createTranslations,
  formatNumber,
  negotiateLanguage,
  requestLocale,
  translationsPlugin,
  type Catalog,
  type LanguageHints,
  type Translate,
  type Translations,
  type TranslationsOptions,
  type TranslationsPlugin,
  type TranslationsPluginOptions,
} from "./i18n/index.js";

/**
 * @module services
 * Mail, file storage, caching, signals and web assets for koa-host apps, framework-agnostic:
 * plain functions, Koa middleware, a TC39 decorator tag and one host plugin. fw-a and fw-b
 * re-export them in their own idiom.
 */
export type { BundleDeclarations } from "./assets/bundle.js";
export type { AssetEntry, AssetManifest, AssetMatch } from "./assets/manifest.js";
export { createCache, type Cache, type CacheOptions } from "./cache/cache.js";
export type { CacheStore } from "./cache/store.js";
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
export type { MailPart, MailRenderer, RenderedMail } from "./mail/templates.js";
export type { MailAttachment, MailInfo, MailTransport, OutgoingMail } from "./mail/transport.js";
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
  chooseLanguage,
  createTranslations,
  formatNumber,
  translationsPlugin,
  type Catalog,
  type LanguageHints,
  type Translate,
  type Translations,
  type TranslationsOptions,
  type TranslationsPlugin,
  type TranslationsPluginOptions,
} from "./i18n/index.js";

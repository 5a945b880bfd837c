/**
 * @module @fwkit/koa-host/plugin
 * What plugin authors and the sibling packages (the frameworks, the batteries) build on: the
 * `HostPlugin` shape and its context, the driver loader, outage logging, error pages, response
 * helpers, escaping, config keys and view discovery, `createHost` with the responder and view base
 * types, and every error code of the host. Not the API of an
 * app: apps and framework users import `@fwkit/koa-host` (or their framework).
 */
export { defaultConfig, ENV_KEYS, environmentSections, KNOWN_ENVIRONMENTS } from "./config.js";
export {
  HOST_CONFIG_KEYS,
  mergeConfigKeys,
  validateConfigKeys,
  type ConfigKeys,
} from "./config-keys.js";
export { mergeConfig } from "./config-merge.js";
// A battery's config declared once: types, key check, defaults, environment strings, docs table.
export * from "./config-schema/index.js";
export { loadEnvFile, parseEnvFile } from "./env-file.js";
export { listModuleFiles, listViewModules, loadViewModules, viewModuleFile } from "./discovery.js";
export { escapeHtml, escapeXml, isXmlName, toXml } from "./escape/index.js";
export { createFileProbe, type FileProbe } from "./file-probe.js";
// Every error code of the host (the root entry exports the ones an app meets).
export * from "./errors.js";
// Assembling a host: what a framework gives it and gets back.
export { createHost } from "./host.js";
export type { HostOptions, ResponderSetup } from "./host-types.js";
export type { ErrorInfo, RespondFn, Responder } from "./responder.js";
export { HOST_VIEW_FIELDS, HostView } from "./view.js";
export type { RouteClassName, RouteMethodArgs, RouteName, RouteNameArgs } from "./route-types/route-params.js";
export type { OpenApiContribution, OpenApiRouteNotes, OpenApiSource } from "./openapi/index.js";
export {
  acceptsOnlyJson,
  builtInErrorPage,
  errorPageText,
  sendHtmlError,
  sendJsonError,
  wantsJsonError,
  type ErrorPageText,
} from "./error-pages.js";
export { formatRoutes, routeListing } from "./mounts.js";
export type { MountedApp } from "./host-types.js";
export { HTTP_STATUSES, statusText, toHttpStatus } from "./http-error.js";
export { createLogger, logTimeOf, requestLogger, routeNameOf, type LogTime } from "./logger.js";
export {
  report,
  telemetry,
  traceCall,
  type ConnectionMessage,
  type JobDispatchMessage,
  type JobFailedMessage,
  type JobMessage,
  type LoginRefusedMessage,
  type MailMessage,
  type OutageMessage,
  type QueueMessage,
  type RealtimeTelemetryMessage,
  type RenderMessage,
  type StorageMessage,
  type TracedMessage,
} from "./telemetry.js";
export {
  isOutageReported,
  markOutageReported,
  outageLog,
  watchConnection,
  type ConnectionEvents,
  type OutageLog,
  type OutageLogger,
  type OutageLogOptions,
} from "./outage-log.js";
export type {
  HostPlugin,
  PluginContext,
  ReadinessCheck,
  ReadinessState,
  RequestLogFields,
  StaticFolder,
} from "./plugin.js";
export { encodeLocation, safeHeaders } from "./header-values.js";
export { hasNoBodyStatus, isPlainObject, sendJson, sendText, unwrapReply } from "./respond-helpers.js";
export {
  prepareResult,
  sendXml,
  shapeOf,
  type ResultShape,
  type ResultTableOptions,
  type TemplateRenderer,
} from "./results/index.js";
export { runtimeOf, type HostRuntime } from "./runtime.js";
export { defineSlot, defineStateSlot, type Slot, type StateSlot } from "./slot.js";
// What the host keeps on a request for the packages above it, typed (a battery's own values are its slots).
export {
  inputRefusedSlot,
  localeSlot,
  requestIdSlot,
  routeSlot,
  TRANSLATE_STATE_KEY,
  translatorSlot,
  type RequestTranslate,
} from "./request-state.js";
export { staticFiles, type StaticOptions } from "./static-files.js";
export { processRole, setProcessRole, type ProcessRole } from "./process-role.js";
export { safeStaticPath } from "./static-path.js";
export { driverLoader, type DriverLoader } from "./drivers.js";
export { driverRoot, setDriverRoot } from "./driver-location.js";
export { askPrimary, hasPrimaryParts, type PrimaryPartModule } from "./primary-parts.js";
export {
  clusterCounters,
  WindowCounts,
  type ClusterCounters,
  type CounterLimit,
  type TakeResult,
  type WindowCount,
} from "./counters/index.js";
export { publicUrl, requireBaseUrl, resolveBaseUrl } from "./public-url.js";
export {
  devToolAllowed,
  devToolsBindWarning,
  devToolsRemote,
  isLoopbackAddress,
  isLoopbackHost,
  loopbackOnly,
  type DevToolsConfig,
} from "./dev-access/index.js";
export { loggedPath } from "./log-path.js";
export { assertStrongSecret, SECRET_PLACEHOLDERS, secretWeakness } from "./secret-strength.js";
export {
  type HeaderTrust,
  proxyHeaders,
  REQUEST_HEADERS,
  type RequestHeaderUse,
} from "./production/request-headers.js";
export {
  GCS_ENV,
  readAzureBlobUrl,
  readGcsUrl,
  type AzureBlobLocation,
  type GcsLocation,
} from "./cloud-storage-url.js";

/**
 * @module @fwkit/koa-host/plugin
 * What a framework author and a battery build on: the `HostPlugin` shape and its context,
 * `createHost` with the responder and view base types, error pages and response helpers, the
 * typed request slots and view discovery. Not the API of an app: apps and framework users import
 * `@fwkit/koa-host` (or their framework). A plugin's config keys are declared with
 * `./config-schema` (`defineConfigSchema`, `key`, `ConfigKeys`). The tools the batteries share
 * (telemetry channels, the driver loader, outage logging, counters, cluster asks, cloud storage
 * URLs) are in `@fwkit/battery-kit`; what the command line runs the host with is in `./operations`.
 */
export { listModuleFiles, loadViewModules } from "./discovery.js";
export { escapeHtml, toXml } from "./escape/index.js";
export { createFileProbe, type FileProbe } from "./file-probe.js";
// The host's error a battery raises (its readiness check); error codes are strings on `error.code`.
export { E_NOT_READY } from "./errors.js";
// Assembling a host: what a framework gives it and gets back.
export { createHost } from "./host.js";
export type { HostOptions, ResponderSetup } from "./host-types.js";
export type { ErrorInfo, RespondFn, Responder } from "./responder.js";
export { HOST_VIEW_FIELDS, HostView } from "./view.js";
export type { OpenApiContribution } from "./openapi/index.js";
export { errorPageText, sendHtmlError, sendJsonError, wantsJsonError } from "./error-pages.js";
export { createLogger, routeNameOf } from "./logger.js";
// What a plugin gives the host: its phases (the request's, in the order the host runs them) and checks.
export type {
  HostPhases,
  HostPlugin,
  PhaseContext,
  PluginContext,
  ReadinessCheck,
  ReadinessState,
  RequestLogFields,
  RequestTimer,
  StateGetters,
  StaticFolder,
} from "./plugin.js";
export { isPlainObject, sendJson, sendText, unwrapReply } from "./respond-helpers.js";
export { prepareResult, type TemplateRenderer } from "./results/index.js";
export { runtimeOf, type HostRuntime } from "./runtime.js";
export { defineSlot, defineStateSlot, type Slot, type StateSlot } from "./slot.js";
// Compiled templates kept between starts (both frameworks' responders, outside development).
export { frameworkTemplateCache, TemplateCache, type TemplateInputs } from "./template-cache.js";
// HTTP upgrades (WebSocket handshakes) a plugin claims with `upgradePaths()`.
export { upgradeOf } from "./upgrade.js";
// What the host keeps on a request for the packages above it, typed (a battery's own values are its slots).
export {
  currentUserSlot,
  inputRefusedSlot,
  localeSlot,
  requestIdSlot,
  routeSlot,
  TRANSLATE_STATE_KEY,
  translatorSlot,
} from "./request-state.js";
export { safeStaticPath } from "./static-path.js";
export { publicUrl, requireBaseUrl, resolveBaseUrl } from "./public-url.js";
export { loopbackOnly } from "./dev-access/index.js";
export { loggedPath } from "./log-path.js";
export { nodeHttp } from "./node-http.js";
export { responseBytes } from "./response-bytes.js";
export { type CheckedHeaders, checkedHeaders } from "./header-table.js";
export { assertStrongSecret } from "./secret-strength.js";
export { proxyHeaders } from "./production/request-headers.js";

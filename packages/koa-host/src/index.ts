/**
 * @module koa-host
 * Serves a routing-kernel route table on Koa: a new view instance per request, hooks, the
 * framework's responder, errors, body parsing, method override, slash redirects, static files,
 * config, logging, view discovery and the CLI plumbing both frameworks share.
 */
export { bodyParser } from "./body.js";
export { defaultConfig, defineConfig, ENV_KEYS, environmentSections, KNOWN_ENVIRONMENTS, loadConfig, type AppConfig, type BatterySwitches, type BodyLimits, type ConfigInput, type ConfigLayer, type HostConfig } from "./config.js";
export { HOST_CONFIG_KEYS, mergeConfigKeys, validateConfigKeys, type ConfigKeys } from "./config-keys.js";
export { mergeConfig } from "./config-merge.js";
export { loadEnvFile, parseEnvFile } from "./env-file.js";
export { listViewModules, loadViewModules, viewModuleFile } from "./discovery.js";
export { createDispatch, createDispatcher, type Dispatcher, type DispatchOptions, type RouteLookup } from "./dispatch.js";
export { errorHandler } from "./error-handler.js";
export { escapeHtml, escapeXml, isXmlName, toXml } from "./escape/index.js";
export { createFileProbe, type FileProbe } from "./file-probe.js";
export { acceptsOnlyJson, builtInErrorPage, errorPageText, sendHtmlError, sendJsonError, TRANSLATE_STATE_KEY, wantsJsonError, type ErrorPageText } from "./error-pages.js";
export * from "./errors.js";
export { createHost, type Host, type HostOptions, type ResponderSetup } from "./host.js";
export { formatRoutes, routeListing, type MountedApp } from "./mounts.js";
export { HTTP_STATUSES, HTTPError, HTTPErrorInstance, statusText, toHttpStatus, type HTTPErrorFactory, type HTTPErrorOptions } from "./http-error.js";
export { prepareInvoker, type RouteInvoker } from "./invoke.js";
export { createLogger, requestLogger } from "./logger.js";
export { isOutageReported, markOutageReported, outageLog, watchConnection, type ConnectionEvents, type OutageLog, type OutageLogger, type OutageLogOptions } from "./outage-log.js";
export { overriddenMethod } from "./override.js";
export type { HostPlugin, PluginContext, StaticFolder } from "./plugin.js";
export { redirect, Redirect, reply, Reply, type ReplyInit } from "./reply.js";
export { encodeLocation, safeHeaders } from "./header-values.js";
export { hasNoBodyStatus, isPlainObject, sendJson, sendText, unwrapReply } from "./respond-helpers.js";
export type { ErrorInfo, RespondFn, Responder } from "./responder.js";
export { runtimeOf, type HostRuntime } from "./runtime.js";
export { staticFiles, type StaticOptions } from "./static-files.js";
export { safeStaticPath } from "./static-path.js";
export { HOST_VIEW_FIELDS, HostView } from "./view.js";
export type { RouteClassName, RouteMethodArgs, RouteName, RouteNameArgs, RouteParamLists, RouteParams, RouteParamValue } from "./route-types/route-params.js";
export { defineCommands, type ScriptCommand } from "./script-command.js";
export { driverLoader, type DriverLoader } from "./drivers.js";
export { GCS_ENV, readAzureBlobUrl, readGcsUrl, type AzureBlobLocation, type GcsLocation } from "./cloud-storage-url.js";
export { openApiDocument, openApiSources, type OpenApiConfig, type OpenApiContribution, type OpenApiObject, type OpenApiOptions, type OpenApiResult, type OpenApiRouteNotes, type OpenApiSource } from "./openapi/index.js";

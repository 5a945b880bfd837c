/**
 * @module koa-host
 * Serves a routing-kernel route table on Koa: a new view instance per request, hooks, the
 * framework's responder, errors, body parsing, method override, slash redirects, static files,
 * config, logging and view discovery. This entry is what an app uses; a framework or plugin author
 * builds on `@fwkit/koa-host/plugin` (`createHost`, `HostView`, the responder types) and declares
 * its config keys with `@fwkit/koa-host/config-schema`. The command line is `@fwkit/cli`.
 */
export {
  defineConfig,
  loadConfig,
  type AppConfig,
  type AppServices,
  type BodyLimits,
  type ConfigInput,
  type ConfigLayer,
  type HostConfig,
} from "./config.js";
// The error codes an app meets: a client's bad request (each answered with its 4xx) and a start-up
// the app's own config or templates stop. Every code is in docs/errors.md; the rest, which plugins
// and the command line raise, are strings on `error.code` (`@fwkit/koa-host/plugin` exports the one
// a battery's readiness check raises), and the test client's are exported by `@fwkit/koa-host/testing`.
export {
  E_BAD_HEADER_VALUE,
  E_BAD_METHOD_OVERRIDE,
  E_BAD_URL,
  E_BODY_TOO_LARGE,
  E_CONFIG_ENV_FILE,
  E_CONFIG_INVALID,
  E_CONFIG_UNKNOWN_ENV,
  E_CONFIG_UNKNOWN_KEY,
  E_MALFORMED_BODY,
  E_MALFORMED_JSON,
  E_MISSING_SECRET_KEY,
  E_PORT_IN_USE,
  E_RESULT_NOT_SERIALIZABLE,
  E_STATIC_PATH_INVALID,
  E_TEMPLATE_NOT_FOUND,
  E_WEAK_SECRET_KEY,
  E_XML_CYCLE,
} from "./errors.js";
export type { AppDefinition, CreateOverrides } from "./app-definition.js";
export type { Host } from "./host-types.js";
export { HTTPError, HTTPErrorInstance, type HTTPErrorFactory, type HTTPErrorOptions } from "./http-error.js";
export { redirect, Redirect, reply, Reply, type ReplyInit } from "./reply.js";
export type { RouteParamLists, RouteParams, RouteParamValue } from "./route-types/route-params.js";
export {
  openApiDocument,
  openApiSources,
  type OpenApiConfig,
  type OpenApiObject,
  type OpenApiOptions,
  type OpenApiResult,
  type OpenApiServer,
} from "./openapi/index.js";

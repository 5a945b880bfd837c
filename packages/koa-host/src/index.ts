/**
 * @module koa-host
 * Serves a routing-kernel route table on Koa: a new view instance per request, hooks, the
 * framework's responder, errors, body parsing, method override, slash redirects, static files,
 * config, logging and view discovery. The command line is `@fwkit/cli`.
 */
export {
  defineConfig,
  loadConfig,
  type AppConfig,
  type BodyLimits,
  type ConfigInput,
  type ConfigLayer,
  type HostConfig,
} from "./config.js";
export * from "./errors.js";
export type { AppDefinition, CreateOverrides } from "./app-definition.js";
export { createHost } from "./host.js";
export type { Host, HostOptions, ResponderSetup } from "./host-types.js";
export { HTTPError, HTTPErrorInstance, type HTTPErrorFactory, type HTTPErrorOptions } from "./http-error.js";
export { redirect, Redirect, reply, Reply, type ReplyInit } from "./reply.js";
export type { ErrorInfo, RespondFn, Responder } from "./responder.js";
export { HOST_VIEW_FIELDS, HostView } from "./view.js";
export type { RouteClassName, RouteMethodArgs, RouteName, RouteNameArgs, RouteParamLists, RouteParams, RouteParamValue } from "./route-types/route-params.js";
export { openApiDocument, openApiSources, type OpenApiConfig, type OpenApiContribution, type OpenApiObject, type OpenApiOptions, type OpenApiResult, type OpenApiRouteNotes, type OpenApiServer, type OpenApiSource } from "./openapi/index.js";

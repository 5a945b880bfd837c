/**
 * OpenAPI 3.1 from the route table: the document generator, its JSON Schema conversion, the
 * plugins' part in it, and serving the document with a Swagger UI page.
 */
export { openApiDocument, toOpenApiPath, type OpenApiSource } from "./document.js";
export { toJsonSchema, type Converted } from "./json-schema.js";
export { OPENAPI_CONFIG_KEYS, openApiMiddleware, openApiSettings, type OpenApiConfig } from "./serve.js";
export { openApiPlugin } from "./plugin.js";
export { contributionsOf, openApiSources } from "./sources.js";
export type {
  OpenApiContribution,
  OpenApiObject,
  OpenApiOptions,
  OpenApiResult,
  OpenApiRouteNotes,
  OpenApiServer,
} from "./types.js";

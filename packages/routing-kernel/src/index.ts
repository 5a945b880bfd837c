/**
 * @module routing-kernel
 * Turns view classes and their TC39 decorator metadata into a frozen route table. Pure
 * TypeScript: no Koa, no I/O. Frameworks pass their own conventions (slash policy, special names).
 */
export { buildRouteTable, type RouteTableInput } from "./build.js";
export { defineConventions, type Conventions, type ViewClass } from "./conventions.js";
export {
  bareOrCalled,
  restrictVerbs,
  routePath,
  setTag,
  type MethodDecorator,
  type ViewDecorator,
  type ViewDecoratorContext,
} from "./decorators.js";
export type { ViewModule } from "./discovery.js";
export * from "./errors.js";
export { checkOptionKeys } from "./options.js";
export { RESPONSE_KIND_TAG, responseKindTag, type ResponseKind } from "./response-kind.js";
export type { ParameterSource, Route, RouteEntry, RouteParameter } from "./route.js";
export { routeMetadata, type RouteMetadata } from "./route-metadata.js";
export {
  inputSchema,
  responseSchema,
  routeDoc,
  type InputPart,
  type RouteDoc,
  type RouteSchemas,
} from "./route-schemas.js";
export { RouteTable } from "./table.js";
export { buildUrl, type UrlParams } from "./url-for.js";
export { verbDecorators, type VerbDecorator, type VerbDecorators } from "./verb-decorators.js";
export { ALL_VERBS, isVerb, VERBS, type Verb } from "./verbs.js";

/**
 * @module routing-kernel
 * Turns view classes and their TC39 decorator metadata into a frozen route table. Pure
 * TypeScript: no Koa, no I/O. Frameworks pass their own conventions (slash policy, special names).
 */
export { buildRouteTable, RouteTableBuilder, type RouteTableInput } from "./build.js";
export { defineConventions, SPECIAL_VERBS, type Conventions, type ViewClass } from "./conventions.js";
export {
  bareOrCalled,
  isDecoratorCall,
  restrictVerbs,
  routePath,
  setTag,
  type MethodDecorator,
  type ViewDecorator,
  type ViewDecoratorContext,
} from "./decorators.js";
export { extendsBase, methodsOf, viewClassesOf, type FoundMethod, type ViewModule } from "./discovery.js";
export * from "./errors.js";
export { METADATA, prefixOwnerOf, readClassMetadata, readMethodMetadata, type ClassMetadata, type MethodMetadata } from "./metadata.js";
export { kebabCase } from "./naming.js";
export { checkOptionKeys, closestName, isPlainObject } from "./options.js";
export { readParameters, type ParameterSpec } from "./parameters.js";
export {
  comparePatterns,
  joinPath,
  patternOrderKey,
  patternParams,
  patternShape,
  toggleTrailingSlash,
  validateRoutePath,
} from "./paths.js";
export {
  declaredResponseKind,
  isDataRoute,
  RESPONSE_KIND_TAG,
  responseKindOf,
  responseKindTag,
  type ResponseKind,
  type TaggedRoute,
} from "./response-kind.js";
export type { ParameterSource, Route, RouteEntry, RouteParameter } from "./route.js";
export { routeMetadata, type RouteMetadata } from "./route-metadata.js";
export {
  CLASS_DOC_TAG,
  CLASS_SCHEMAS_TAG,
  DOC_TAG,
  hasInputSchemas,
  INPUT_PARTS,
  inputSchema,
  isStandardSchema,
  responseSchema,
  routeDoc,
  routeDocOf,
  routeSchemas,
  SCHEMAS_TAG,
  type InputPart,
  type RouteDoc,
  type RouteSchemas,
} from "./route-schemas.js";
export { formatRouteListing, RouteTable, type DescribeKind, type RouteListing } from "./table.js";
export { buildUrl, type UrlParams } from "./url-for.js";
export { verbDecorators, type VerbDecorator, type VerbDecorators } from "./verb-decorators.js";
export { ALL_VERBS, isVerb, sortVerbs, VERBS, type Verb } from "./verbs.js";

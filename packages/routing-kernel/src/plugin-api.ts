/**
 * @module routing-kernel/plugin
 * What plugin authors and the sibling packages (the frameworks, the batteries) build on: not the
 * API of an app. Apps import `routing-kernel`; this subpath may change in a minor release.
 */
export { RouteTableBuilder } from "./build.js";
export { SPECIAL_VERBS } from "./conventions.js";
export { isDecoratorCall } from "./decorators.js";
export { extendsBase, methodsOf, viewClassesOf, type FoundMethod } from "./discovery.js";
export {
  METADATA,
  prefixOwnerOf,
  readClassMetadata,
  readMethodMetadata,
  type ClassMetadata,
  type MethodMetadata,
} from "./metadata.js";
export { kebabCase } from "./naming.js";
export { closestName, isPlainObject } from "./options.js";
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
export { declaredResponseKind, isDataRoute, responseKindOf, type TaggedRoute } from "./response-kind.js";
export {
  CLASS_DOC_TAG,
  CLASS_SCHEMAS_TAG,
  DOC_TAG,
  hasInputSchemas,
  INPUT_PARTS,
  isStandardSchema,
  routeDocOf,
  routeSchemas,
  SCHEMAS_TAG,
} from "./route-schemas.js";
export { formatRouteListing, type DescribeKind, type RouteListing } from "./table.js";
export { sortVerbs } from "./verbs.js";

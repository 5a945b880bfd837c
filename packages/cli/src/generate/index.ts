/** The resource generator's shared part: fields, names, the migration, model and factory, and safe writing. */
export {
  columnOf,
  fakeValueOf,
  FIELD_TYPES,
  KNOWN_TYPES,
  labelOf,
  parentOf,
  parseFields,
  patchSchemaOf,
  rowType,
  schemaOf,
  type Field,
  type FieldType,
} from "./fields.js";
export { referenceImports, referencesOf, resolveReferences, type Parent } from "./references.js";
export { choicesKey, choicesSource, listSource, loadedSource, oneSource, viewModels } from "./reference-views.js";
export { outputName, outputSchemaSource } from "./output-schema.js";
export { inputSchemaSource } from "./input-schema.js";
export { resourceNames, type ResourceNames } from "./resource-names.js";
export {
  checkResourceClashes,
  commonResourcePlan,
  writeResource,
  type ResourceEdit,
  type ResourcePlan,
  type ResourceResult,
} from "./resource-files.js";
export { generateResource, resourceCommand, type ResourceOptions, type ResourceScaffold } from "./resource-command.js";
export {
  LIVE_SCRIPT_STATIC,
  liveBroadcastSource,
  liveChannel,
  liveEventsPath,
  liveKey,
  liveListedSource,
} from "./live.js";
export { resourceTestFile } from "./resource-test.js";

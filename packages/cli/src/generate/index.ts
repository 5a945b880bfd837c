/** The resource generator's shared part: fields, names, the migration, model and factory, and safe writing. */
export {
  columnOf,
  fakeValueOf,
  FIELD_TYPES,
  labelOf,
  parseFields,
  patchSchemaOf,
  rowType,
  schemaOf,
  type Field,
  type FieldType,
} from "./fields.js";
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
export { generateResource, resourceCommand, type ResourceScaffold } from "./resource-command.js";
export { resourceTestFile } from "./resource-test.js";

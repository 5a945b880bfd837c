/**
 * Config schemas: a battery declares its keys once (`defineConfigSchema`, `key`), and its types,
 * start-up key check, defaults, reading of environment strings and docs table follow from it.
 */
export { coerceBoolean, coerceNumber, coerceStringList, isUnset, NOT_READ, type Coerced } from "./coerce.js";
export { DURATION_EXPECTED, type Duration, parseDuration } from "./duration.js";
export {
  key,
  type DurationOptions,
  type BlockOptions,
  type ConfigKey,
  type ConfigShape,
  type ConfigSource,
  type CustomOptions,
  type Default,
  type InputOfShape,
  type KeyOptions,
  type ListOptions,
  type NumberOptions,
  type ReadContext,
  type ResolvedOfShape,
  type StringOptions,
  type WithDefault,
} from "./keys.js";
export {
  defineConfigSchema,
  type ConfigSchema,
  type ConfigSchemaOptions,
  type InputOf,
  type ResolveOptions,
  type ResolvedOf,
} from "./schema.js";
export { renderConfigTable, type ConfigTableOptions, type ConfigTableSection } from "./table.js";

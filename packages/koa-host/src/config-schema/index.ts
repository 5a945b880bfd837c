/**
 * @module @fwkit/koa-host/config-schema
 * Config schemas: a framework or battery declares the config keys it reads once
 * (`defineConfigSchema`, `key`), and the rest follows from that declaration: the app-facing and
 * resolved types (`InputOf`, `ResolvedOf`), the start-up key check (`schema.configKeys`, a
 * `ConfigKeys` declaration a `HostPlugin` or `createHost` of `./plugin` takes), the defaults, the
 * reading of environment strings (`coerceNumber`, `parseDuration`...) and the docs table
 * (`renderConfigTable`).
 */
export { coerceBoolean, coerceNumber, coerceStringList, isUnset, NOT_READ, type Coerced } from "./coerce.js";
export { DURATION_EXPECTED, type Duration, parseDuration } from "./duration.js";
export {
  key,
  type DurationOptions,
  type BlockOptions,
  type ConfigKey,
  type ConfigKeys,
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

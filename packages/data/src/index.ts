/**
 * @module data
 * The knex data layer shared by fw-a and fw-b: one-URL connections (SQLite by default,
 * PostgreSQL, MySQL/MariaDB), typed models with timestamps and soft delete, migrations,
 * pagination, model factories and seeds, UTC dates with display helpers, Standard-Schema validation and flash messages,
 * and `dataPlugin` wiring all of it into a koa-host app.
 */
export type { Knex } from "knex";
export type { StandardSchemaV1 } from "@standard-schema/spec";
export type { DataAppConfig } from "./config-schema.js";
export { connect, type ConnectOptions, type Database } from "./connection.js";
export {
  dateHelpers,
  formatDate,
  isoDate,
  timeAgo,
  type DateConfig,
  type DateHelpers,
  type DateInput,
} from "./dates.js";
export type { Dialect } from "./db-url.js";
export * from "./errors.js";
export {
  defineFactory,
  seedFactories,
  type AfterCreate,
  type Factory,
  type FactoryAttributes,
  type FactoryContext,
  type FactoryOverrides,
  type Lazy,
} from "./factories/index.js";
export { flash, type FlashContext, type FlashData, type FlashLocals, type FlashMessage } from "./flash.js";
export { defineModel } from "./model.js";
export type {
  AutoColumns,
  BaseRow,
  CreateInput,
  Model,
  ModelMethods,
  ModelOptions,
  ModelScope,
  ModelView,
  RowOf,
  SoftDeleteRow,
  UpdateInput,
} from "./model-types.js";
export * from "./relations/index.js";
export { pageParams, type PageParams, type PageParamsOptions } from "./page-params.js";
export { paginate, type Page, type PageLink, type PaginateOptions } from "./paginate.js";
export { input } from "./declared-input.js";
export { dataPlugin, type DataPlugin, type DataPluginOptions } from "./plugin.js";
export { REFUSED_INPUT_LIMITS } from "./refused-input.js";
export { dateColumn, modelTimestamps } from "./schema.js";
export type { SeedContext, SeedFunction } from "./seeds/index.js";
export { transaction } from "./transaction.js";
export {
  validate,
  ValidationError,
  type FieldErrors,
  type InputContext,
  type InputSource,
  type ValidateOptions,
} from "./validate.js";

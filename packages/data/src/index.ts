/**
 * @module data
 * The knex data layer shared by fw-a and fw-b: one-URL connections (SQLite by default,
 * PostgreSQL, MySQL/MariaDB), typed models with timestamps and soft delete, migrations,
 * pagination, UTC dates with display helpers, Standard-Schema validation and flash messages,
 * and `dataPlugin` wiring all of it into a koa-host app.
 */
export type { Knex } from "knex";
export type { StandardSchemaV1 } from "@standard-schema/spec";
export { DATA_CONFIG_KEYS, dataConfig, type DataConfig, type DataConfigInput } from "./config.js";
export type { DataAppConfig } from "./config-types.js";
export { connect, dialectOfKnex, knexConfig, type ConnectOptions, type Database } from "./connection.js";
export { convertDateColumns, isDateColumnName, toDate } from "./date-columns.js";
export {
  assertTimezone,
  dateHelpers,
  DEFAULT_DATE_FORMAT,
  formatDate,
  isoDate,
  timeAgo,
  type DateConfig,
  type DateHelpers,
  type DateInput,
} from "./dates.js";
export { DEFAULT_DB_URL, maskDbUrl, parseDbUrl, type DbTarget, type Dialect } from "./db-url.js";
export { isUniqueViolation, translateDbError } from "./db-errors.js";
export * from "./errors.js";
export {
  flash,
  flashInput,
  flashLocals,
  flashMiddleware,
  FLASH_SESSION_KEY,
  hasSession,
  type FlashContext,
  type FlashData,
  type FlashLocals,
  type FlashMessage,
} from "./flash.js";
export { makeMigration, MIGRATION_TEMPLATE, migrationTimestamp, type MakeMigrationOptions } from "./make-migration.js";
export { DRAFT_NOTE, heldMessage, heldMigrations, isDraftFile, isDraftMigration, markDraft } from "./migration-drafts.js";
export { migrationCommands, type MigrationCommands } from "./migration-commands.js";
export { migrationCliCommands, type MigrationCliCommand, type MigrationCliNames } from "./migration-cli.js";
export {
  FolderMigrationSource,
  migrate,
  MIGRATION_EXTENSIONS,
  migrationStatus,
  rollback,
  ShippedAndFolderMigrationSource,
  type MigrateOptions,
  type MigrationOptions,
  type MigrationState,
  type ShippedMigration,
} from "./migrations.js";
export { defineModel, isModel, MODEL_BRAND } from "./model.js";
export { bindModels, findModelsFile, loadModels, MODEL_FILES } from "./model-registry.js";
export type {
  AutoColumns,
  BaseRow,
  CreateInput,
  Model,
  ModelMethods,
  ModelOptions,
  ModelScope,
  RowOf,
  SoftDeleteRow,
  UpdateInput,
} from "./model-types.js";
export { pageParams, type PageParams, type PageParamsOptions } from "./page-params.js";
export { paginate, pageUrl, type Page, type PageLink, type PaginateOptions } from "./paginate.js";
export { paginationLinks, type PaginationLabels } from "./pagination-html.js";
export { declaredInputMiddleware, input } from "./declared-input.js";
export { dataPlugin, DB_STATE_KEY, type DataPlugin, type DataPluginOptions } from "./plugin.js";
export { dateColumn, modelTimestamps } from "./schema.js";
export { activeConnection, transaction } from "./transaction.js";
export {
  fieldErrors,
  FORM_FIELD,
  isValidationError,
  oldInput,
  validate,
  validateValue,
  ValidationError,
  type FieldErrors,
  type InputContext,
  type InputSource,
  type ValidateOptions,
} from "./validate.js";
export {
  backUrl,
  respondToValidationError,
  validationErrorBody,
  validationErrorMiddleware,
  validationErrorXml,
  wantsData,
} from "./validation-response.js";

/**
 * @module @fwkit/data/plugin
 * What plugin authors and the sibling packages (the frameworks, the batteries) build on: not the
 * API of an app. Apps import `@fwkit/data`; this subpath may change in a minor release. The
 * functions behind the migration and seed commands, the form helpers the frameworks' views use and
 * the defaults of the config keys are here too.
 */
export { DATA_CONFIG_KEYS, dataConfig, type DataConfig, type DataConfigInput } from "./config.js";
export { dataConfigSchema } from "./config-schema.js";
export { dialectOfKnex, knexConfig } from "./connection.js";
export { convertDateColumns, isDateColumnName, toDate } from "./date-columns.js";
export { assertTimezone, DEFAULT_DATE_FORMAT } from "./dates.js";
export { DEFAULT_DB_URL, maskDbUrl, parseDbUrl, type DbTarget, type Dialect } from "./db-url.js";
export { isUniqueViolation, translateDbError } from "./db-errors.js";
export { flashInput, flashLocals, flashMiddleware, FLASH_SESSION_KEY, hasSession } from "./flash.js";
export { makeMigration, MIGRATION_TEMPLATE, migrationTimestamp, type MakeMigrationOptions } from "./make-migration.js";
export {
  DRAFT_NOTE,
  heldMessage,
  holdsDrafts,
  heldMigrations,
  isDraftFile,
  isDraftMigration,
  markDraft,
} from "./migration-drafts.js";
export { migrationCommands, type MigrationCommands } from "./migration-commands.js";
export { migrationCliCommands, type MigrationCliCommand, type MigrationCliNames } from "./migration-cli.js";
export {
  FolderMigrationSource,
  migrate,
  MIGRATION_EXTENSIONS,
  migrationStatus,
  pendingMigrations,
  rollback,
  ShippedAndFolderMigrationSource,
  type MigrateOptions,
  type MigrationHistory,
  type MigrationOptions,
  type MigrationState,
  type ShippedMigration,
} from "./migrations.js";
export { migrationName } from "./migration-names.js";
export { isModel, MODEL_BRAND } from "./model.js";
export { bindModels, findModelsFile, loadModels, MODEL_FILES } from "./model-registry.js";
export { DEFAULT_FAKER_SEED, factoryFaker } from "./factories/index.js";
export {
  listSeeds,
  runSeeds,
  seedApp,
  seedCliCommand,
  SEEDS_DIR,
  type RunSeedsOptions,
  type SeedAppOptions,
  type SeedCliCommand,
} from "./seeds/index.js";
export { pageUrl } from "./paginate.js";
export { paginationLinks, type PaginationLabels } from "./pagination-html.js";
export { declaredFields } from "./refused-input.js";
export { declaredInputMiddleware } from "./declared-input.js";
export { DB_STATE_KEY, dbSlot } from "./plugin.js";
export { activeConnection } from "./transaction.js";
export { fieldErrors, FORM_FIELD, isValidationError, oldInput, validateValue } from "./validate.js";
export {
  BACK_FIELD,
  backPath,
  backUrl,
  localBackPath,
  respondToValidationError,
  validationErrorBody,
  validationErrorMiddleware,
  validationErrorXml,
  wantsData,
} from "./validation-response.js";

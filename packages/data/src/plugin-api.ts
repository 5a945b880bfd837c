/**
 * @module @fwkit/data/plugin
 * What plugin authors and the sibling packages (the frameworks, the batteries) build on: not the
 * API of an app. Apps import `@fwkit/data`; this subpath may change in a minor release.
 */
export { DATA_CONFIG_KEYS, dataConfig, type DataConfig } from "./config.js";
export { dataConfigSchema } from "./config-schema.js";
export { dialectOfKnex, knexConfig } from "./connection.js";
export { convertDateColumns, isDateColumnName, toDate } from "./date-columns.js";
export { assertTimezone } from "./dates.js";
export { maskDbUrl, parseDbUrl, type DbTarget } from "./db-url.js";
export { translateDbError } from "./db-errors.js";
export { flashInput, flashLocals, flashMiddleware, FLASH_SESSION_KEY, hasSession } from "./flash.js";
export { MIGRATION_TEMPLATE, migrationTimestamp } from "./make-migration.js";
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
export { MIGRATION_EXTENSIONS, ShippedAndFolderMigrationSource, type ShippedMigration } from "./migrations.js";
export { isModel, MODEL_BRAND } from "./model.js";
export { bindModels, findModelsFile, loadModels, MODEL_FILES } from "./model-registry.js";
export { factoryFaker } from "./factories/index.js";
export { seedApp, seedCliCommand, SEEDS_DIR, type SeedAppOptions, type SeedCliCommand } from "./seeds/index.js";
export { declaredInputMiddleware } from "./declared-input.js";
export { DB_STATE_KEY, dbSlot } from "./plugin.js";
export { activeConnection } from "./transaction.js";
export { FORM_FIELD } from "./validate.js";
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

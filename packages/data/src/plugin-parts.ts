/**
 * What the data plugin runs with once it is on: binding the models, the migrations and their
 * drafts, the validation answers and the pagination links. The plugin imports this file in its
 * `setup`, so an app that switches the battery off never loads them.
 */
export { bindModels, loadModels } from "./model-registry.js";
export { heldMessage, holdsDrafts, isDraftFile } from "./migration-drafts.js";
export { MIGRATION_EXTENSIONS, migrate, pendingMigrations } from "./migrations.js";
export { paginationLinks } from "./pagination-html.js";
export { answerValidationError, backPath, validationErrorMiddleware } from "./validation-response.js";

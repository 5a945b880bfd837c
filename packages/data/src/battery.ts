/**
 * @module data/battery
 * What a framework assembles the data battery from at start-up, and nothing more: its config
 * schema, the request slot of the database and the binding of a framework's own models. Importing it loads none of the migrations, their
 * commands or the seeds (`@fwkit/data/plugin` has them).
 */
export { dataConfigSchema } from "./config-schema.js";
export { DB_STATE_KEY, dbSlot } from "./db-slot.js";
export { bindModels } from "./model-registry.js";

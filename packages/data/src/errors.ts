/**
 * Errors raised by the data package. Each has a stable `code` callers branch on, an HTTP `status`
 * used when it reaches a client, and a message that says what to do.
 */
import { createError } from "routing-kernel";

/** The database URL has a scheme or shape this package does not understand. */
export const E_BAD_DB_URL = createError(
  "E_BAD_DB_URL",
  500,
  (maskedUrl: string, why: string) =>
    `The database URL ${maskedUrl} cannot be used: ${why}. Use sqlite:<path>, postgres://user:pass@host:port/db or mysql://user:pass@host:port/db in DB_URL or the dbUrl config key.`,
);

/** The database named by the URL did not answer at start-up (server down, wrong credentials, bad path). */
export const E_DB_UNREACHABLE = createError(
  "E_DB_UNREACHABLE",
  503,
  (maskedUrl: string, why: string) =>
    `Cannot connect to the database at ${maskedUrl} (${why}). Check DB_URL or the dbUrl config key, and that the server is running and accepts these credentials.`,
);

/** A model was used before `bindModels`/`loadModels`/the data plugin gave it a connection. */
export const E_MODEL_UNBOUND = createError(
  "E_MODEL_UNBOUND",
  500,
  (table: string) =>
    `The model for "${table}" is not bound to a database. Export it from lib/models.ts so the data plugin binds it, or call bindModels(knex, { ... }) first.`,
);

/** The app's lib/models file failed to import. */
export const E_MODELS_LOAD = createError(
  "E_MODELS_LOAD",
  500,
  (file: string, why: string) =>
    `Cannot load the models file ${file}: ${why}. Fix the error in that file (it is imported at start-up).`,
);

/** A row looked up with findOrFail/updated/restored does not exist (or is soft-deleted). */
const RowNotFound = createError(
  "E_ROW_NOT_FOUND",
  404,
  (table: string, what: string) => `No ${table} row matches ${what}.`,
);

/**
 * No row matches (`findOrFail`, `update` of a missing id): a 404 whose message names the table,
 * shown in development only (`expose: false`); elsewhere the client reads "Not Found".
 */
export class E_ROW_NOT_FOUND extends RowNotFound {
  readonly expose = false;
}

/** An insert or update would duplicate a value of a unique column. */
export const E_UNIQUE_VIOLATION = createError(
  "E_UNIQUE_VIOLATION",
  409,
  (table: string, columns: string) => `A ${table} row with this ${columns} already exists. Choose another value.`,
);

/** An insert, update or delete refers to a row that does not exist, or is still referenced. */
export const E_FOREIGN_KEY_VIOLATION = createError(
  "E_FOREIGN_KEY_VIOLATION",
  409,
  (table: string) =>
    `The ${table} change refers to a row that does not exist, or removes a row other rows still refer to.`,
);

/** A value does not fit its column (missing required value, too long, out of range, wrong type). */
export const E_INVALID_DATA = createError(
  "E_INVALID_DATA",
  400,
  (table: string, why: string) => `The ${table} data was refused by the database: ${why}.`,
);

/** `page` or `perPage` in the query string is not a usable positive whole number. */
export const E_BAD_PAGE_PARAM = createError(
  "E_BAD_PAGE_PARAM",
  400,
  (name: string, value: string, why: string) => `The query parameter ${name}=${JSON.stringify(value)} ${why}.`,
);

/** Input failed a validation schema; carries per-field messages and the old input. */
export const E_VALIDATION = createError("E_VALIDATION", 422, (message: string) => message);

/** The data plugin's runtime (database, models, settings) was read before the plugin's `setup()` ran. */
export const E_DATA_NOT_SET_UP = createError(
  "E_DATA_NOT_SET_UP",
  500,
  () => "The data plugin is used before its setup ran; add it to the app's plugins (the data battery does).",
);

/** Flash messages or form redirects were used on a request without `ctx.session`. */
export const E_NO_SESSION = createError(
  "E_NO_SESSION",
  500,
  (what: string) =>
    `${what} needs a session (ctx.session). Add the security package's session plugin before the data plugin.`,
);

/** A migration name given to makeMigration cannot become a file name. */
export const E_BAD_MIGRATION_NAME = createError(
  "E_BAD_MIGRATION_NAME",
  400,
  (name: string) =>
    `The migration name ${JSON.stringify(name)} is not usable: use letters, digits, "_" and "-" only (for example create_posts).`,
);

/** A migration file could not be imported or lacks `up`/`down`. */
export const E_MIGRATION_LOAD = createError(
  "E_MIGRATION_LOAD",
  500,
  (file: string, why: string) =>
    `Cannot load the migration ${file}: ${why}. A migration exports async functions up(knex) and down(knex); .ts files need the CLI (it runs under tsx).`,
);

/** The configured time zone is not an IANA zone name. */
export const E_BAD_TIMEZONE = createError(
  "E_BAD_TIMEZONE",
  500,
  (zone: string) =>
    `The time zone ${JSON.stringify(zone)} is unknown. Use an IANA name such as "UTC" or "Europe/Paris".`,
);

/** A data config key has a value of the wrong kind (`maxPerPage: 0`, `dbPool: { max: "many" }`). */
export const E_DATA_CONFIG_INVALID = createError(
  "E_DATA_CONFIG_INVALID",
  500,
  (key: string, expected: string, value: unknown) =>
    `The config key ${key} must be ${expected}, not ${JSON.stringify(value) ?? String(value)}.`,
);

/** makeMigration would overwrite an existing file. */
export const E_MIGRATION_EXISTS = createError(
  "E_MIGRATION_EXISTS",
  409,
  (path: string) => `The migration ${path} already exists. Pick another name or wait a second.`,
);

/** The driver package of the configured database (pg, mysql2, better-sqlite3) or knex itself could not be loaded. */
export const E_DB_DRIVER_MISSING = createError(
  "E_DB_DRIVER_MISSING",
  500,
  (maskedUrl: string, name: string, reason: string) =>
    `The database at ${maskedUrl} needs the package "${name}", which could not be loaded (${reason}). Install it (npm install ${name}) in the app.`,
);

/** A view asked for the parsed value of a schema its route did not declare (or the data battery is off). */
export const E_INPUT_NOT_DECLARED = createError(
  "E_INPUT_NOT_DECLARED",
  500,
  (route: string, nothingValidated: boolean) =>
    nothingValidated
      ? `${route} reads declared input, but nothing was validated for it: declare the schema on the method (fw-a @request.body(Schema) / @request.query / @request.files, fw-b @body(Schema) / @query / @files) and keep the data battery on.`
      : `${route} asks for a schema it did not declare: pass the very schema object given to its @request.body / @body (or @query, @files) decorator, or validate it in the method with validate().`,
);

/** `defineFactory` was given something that is not a model, or no definition function. */
export const E_FACTORY_DEFINITION = createError(
  "E_FACTORY_DEFINITION",
  500,
  (table: string) =>
    `The factory for ${table} cannot be defined: call defineFactory(Model, ({ faker }) => ({ ...attributes })) with a model from defineModel and a function.`,
);

/** `makeMany`/`createMany` was asked for a count that is not a whole number of rows. */
export const E_FACTORY_COUNT = createError(
  "E_FACTORY_COUNT",
  500,
  (table: string, count: string) => `A ${table} factory cannot make ${count} rows: pass a whole number, 0 or more.`,
);

/** The seed named with `--file` is not in the app's seeds folder. */
export const E_SEED_NOT_FOUND = createError(
  "E_SEED_NOT_FOUND",
  404,
  (name: string, dir: string, known: string) =>
    `There is no seed ${JSON.stringify(name)} in ${dir}. Seeds there: ${known}.`,
);

/** A seed file failed to import or does not export `seed`. */
export const E_SEED_LOAD = createError(
  "E_SEED_LOAD",
  500,
  (file: string, why: string) =>
    `Cannot run the seed ${file}: ${why}. A seed file exports async function seed({ knex, models, env }); .ts files need the CLI (it runs under tsx).`,
);

/** A seed threw: its transaction was rolled back and the run stopped. */
export const E_SEED_FAILED = createError(
  "E_SEED_FAILED",
  500,
  (file: string, why: string, kept: string) =>
    `The seed ${file} failed: ${why}. Nothing else ran after it, and its writes were rolled back${kept}. Fix the seed and run it again.`,
);

/** Seeding was asked for in production without `--force`. */
export const E_SEED_IN_PRODUCTION = createError(
  "E_SEED_IN_PRODUCTION",
  409,
  (command: string) =>
    `The app runs in production: seeding would write made-up rows into real data. Run ${command} --force if that is what you mean.`,
);

/** Factories need `@faker-js/faker`, a development dependency of the app, and it is not installed. */
export const E_FAKER_MISSING = createError(
  "E_FAKER_MISSING",
  500,
  (reason: string) =>
    `Model factories need the package "@faker-js/faker", which could not be found (${reason}). Install it in the app: npm install -D @faker-js/faker.`,
);

/** A relation was declared with something that is not a model, or with options it does not know. */
export const E_RELATION_DEFINITION = createError(
  "E_RELATION_DEFINITION",
  500,
  (where: string, why: string) =>
    `The relation ${where} cannot be declared: ${why}. Declare relations as .relations({ name: () => belongsTo(Model, { ...options }) }).`,
);

/** A relation name or path (preload, related, withCount, whereHas, factories) is not declared on the model. */
export const E_UNKNOWN_RELATION = createError(
  "E_UNKNOWN_RELATION",
  500,
  (table: string, name: string, known: string) =>
    `The ${table} model has no relation "${name}". Its relations: ${known || "(none; declare them with .relations({...}))"}.`,
);

/** A relation write was used on a relation kind that does not have it (attach on a belongsTo, say). */
export const E_RELATION_WRITE = createError(
  "E_RELATION_WRITE",
  500,
  (relation: string, kind: string, write: string, use: string) =>
    `${write} cannot be used on the ${kind} relation ${relation}: ${use}.`,
);

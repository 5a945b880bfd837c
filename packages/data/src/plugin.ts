/**
 * The data battery as a koa-host plugin: connects at start-up (failing fast with the masked URL),
 * binds the app's models, offers `ctx.state.db`, turns validation and constraint errors into
 * 4xx answers, gives templates date, flash and pagination helpers, and closes the pool at shutdown.
 */
import { join } from "node:path";
import type { Context, Middleware } from "koa";
import type { Knex } from "knex";
import { E_NOT_READY, localeSlot, type HostPlugin, type PluginContext } from "@fwkit/koa-host/plugin";
import type { Route } from "routing-kernel";
import { declaredResponseKind } from "routing-kernel/plugin";
import { DATA_CONFIG_KEYS, dataConfig, type DataConfig } from "./config.js";
import { connect, type Database } from "./connection.js";
import { dateHelpers, type DateHelpers, type DateInput } from "./dates.js";
import { declaredInputMiddleware } from "./declared-input.js";
import { translateDbError } from "./db-errors.js";
import { E_DATA_NOT_SET_UP } from "./errors.js";
import { flashLocals, takeIncomingFlash } from "./flash.js";
import { requestText } from "./request-text.js";
import { dbSlot } from "./db-slot.js";
import type { BaseRow, Model } from "./model-types.js";
import type { PaginationLabels } from "./pagination-html.js";

export { DB_STATE_KEY, dbSlot } from "./db-slot.js";

/** What the plugin runs with once on, loaded by its `setup` (see plugin-parts.ts). */
type Parts = typeof import("./plugin-parts.js");

/** True when the pending migration `name` of `dir` is a file still as the make command wrote it. */
function isDraftMigrationName(dir: string, name: string, { isDraftFile, MIGRATION_EXTENSIONS }: Parts): boolean {
  return MIGRATION_EXTENSIONS.some((extension) => isDraftFile(join(dir, `${name}${extension}`)));
}

/** Options of {@link dataPlugin}. */
export interface DataPluginOptions {
  /** Database URL; wins over `DB_URL` and the `dbUrl` config key. */
  readonly url?: string;
  /**
   * The models to bind: a module's exports (`import * as models from "./lib/models.js"`).
   * Default: `<root>/lib/models.ts` (or .js) is imported when present.
   */
  readonly models?: Readonly<Record<string, unknown>>;
  /**
   * Apply pending migrations at start-up, stopping before the first draft (a migration file not
   * edited since it was made). Default false (run `db:migrate` / `:migrate`).
   */
  readonly migrate?: boolean;
}

/** The data plugin, with the connection and models it set up. */
export interface DataPlugin extends HostPlugin {
  readonly name: "data";
  /** The open connection (throws before setup). */
  readonly database: Database;
  /** The resolved settings (after setup). */
  readonly settings: DataConfig;
  /** The models bound at setup, by export name. */
  readonly models: Readonly<Record<string, Model<BaseRow>>>;
  setup(context: PluginContext): Promise<void>;
  /** The request phase (the database on the request, flash, validation answers) and the route phase (declared input). */
  readonly phases: {
    request(): readonly Middleware[];
    route(route: Route): Middleware;
  };
  locals(ctx: Context): Record<string, unknown>;
  close(): Promise<void>;
}

/**
 * Creates the data plugin. Per request: `ctx.state.db` is the knex instance; ValidationError
 * becomes 422 JSON/XML or a redirect with flash data; driver constraint errors become
 * E_UNIQUE_VIOLATION (409), E_FOREIGN_KEY_VIOLATION (409) or E_INVALID_DATA (400). Template
 * locals: `formatDate`, `timeAgo`, `isoDate`, `timezone`, `flash_messages`, `errors`, `old`,
 * `back_path()`, `pagination_links`. Put it after the session plugin so flash data has a session.
 */
export function dataPlugin(options: DataPluginOptions = {}): DataPlugin {
  let database: Database | undefined;
  let settings: DataConfig | undefined;
  let helpers: DateHelpers | undefined;
  let models: Record<string, Model<BaseRow>> = {};
  // Loaded once by setup: the battery's modules an app that switches it off never needs.
  let parts: Parts | undefined;
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new E_DATA_NOT_SET_UP();
    return value;
  };

  return {
    name: "data",
    configKeys: DATA_CONFIG_KEYS,
    get database() {
      return ready(database);
    },
    get settings() {
      return ready(settings);
    },
    get models() {
      return models;
    },

    async setup(context: PluginContext) {
      settings = dataConfig(context.config);
      const { bindModels, heldMessage, holdsDrafts, loadModels, migrate } = (parts ??= await import(
        "./plugin-parts.js"
      ));
      helpers = dateHelpers(settings);
      database = await connect(options.url ?? settings.dbUrl, {
        root: settings.appDir,
        pool: settings.pool,
        logger: context.logger,
      });
      context.logger.info({ db: database.url, dialect: database.dialect }, "database connected");
      try {
        models = options.models
          ? bindModels(database.knex, options.models)
          : await loadModels(settings.root, database.knex);
        if (options.migrate) {
          // Drafts (files still as db:make or a generator wrote them) wait until they are edited,
          // except on a database in memory (tests): it keeps no record that an edit would outdate.
          const applied = await migrate(database.knex, settings.migrationsDir, {
            holdDrafts: holdsDrafts(database.knex),
            // Info, not a warning: the dev server shows it; a user command (logged at warn) need not.
            onHeld: (held) => context.logger.info({ migrations: held }, heldMessage(held)),
          });
          if (applied.length > 0) context.logger.info({ migrations: applied }, "migrations applied");
        }
      } catch (error) {
        await database.close();
        throw error;
      }
    },

    phases: {
      request(): readonly Middleware[] {
        const knex = (): Knex => ready(database).knex;
        const { answerValidationError } = ready(parts);
        // A ValidationError from anything below (a hand-written route, another plugin) is answered
        // as validate()'s; a driver's constraint error becomes its 4xx.
        const answerFailure = (ctx: Context, error: unknown): void => {
          if (!answerValidationError(ctx, error)) throw translateDbError(error);
        };
        // One layer, not an async one, where there were three.
        return [
          (ctx, next) => {
            dbSlot.set(ctx, knex());
            takeIncomingFlash(ctx);
            let below: Promise<unknown>;
            try {
              below = next();
            } catch (error) {
              below = Promise.reject(error);
            }
            return below.then(undefined, (error: unknown) => answerFailure(ctx, error));
          },
        ];
      },

      route(route: Route) {
        const answer = ready(parts).validationErrorMiddleware(declaredResponseKind(route));
        // Declared input is validated inside the validation answers, so a refusal is answered as validate()'s.
        const declared = declaredInputMiddleware(route);
        return declared ? (ctx, next) => answer(ctx, () => declared(ctx, next)) : answer;
      },
    },

    locals(ctx) {
      const dates = ready(helpers);
      const { backPath, paginationLinks } = ready(parts);
      // The request's language, once the framework has decided it (koa-host's localeSlot): dates are
      // written in it. Read when a template formats, not here, as the framework may decide later.
      const locale = () => {
        const chosen = localeSlot.get(ctx);
        return typeof chosen === "string" ? chosen : undefined;
      };
      return {
        ...dates,
        formatDate: (date: DateInput, format?: string, tz?: string) => dates.formatDate(date, format, tz, locale()),
        timeAgo: (date: DateInput) => dates.timeAgo(date, locale()),
        ...flashLocals(ctx),
        // The page a form on this page goes back to when it is refused (the `_back` field).
        back_path: () => backPath(ctx),
        // Labels given by the template win; else the request's language, else English.
        pagination_links: (page: Parameters<Parts["paginationLinks"]>[0], labels: PaginationLabels = {}) =>
          paginationLinks(page, {
            prev: labels.prev ?? requestText(ctx, "pagination.prev"),
            next: labels.next ?? requestText(ctx, "pagination.next"),
          }),
      };
    },

    // Readiness (/readyz): both parts are required, a node without its database or on an older
    // schema than its code serves errors. The reasons go to the log only, without the URL.
    readiness: () => [
      {
        name: "database",
        async check() {
          try {
            await ready(database).knex.raw("select 1");
          } catch (error) {
            throw new E_NOT_READY("the database", (error as Error).message);
          }
        },
      },
      {
        name: "migrations",
        async check() {
          const dir = ready(settings).migrationsDir;
          const loaded = ready(parts);
          const pending = await loaded.pendingMigrations(ready(database).knex, dir);
          // A draft (a file not edited since it was made) is not applied at start-up either: it holds no node back.
          return pending.some((name) => !isDraftMigrationName(dir, name, loaded)) ? "pending" : "ok";
        },
      },
    ],

    async close() {
      await database?.close();
    },
  };
}

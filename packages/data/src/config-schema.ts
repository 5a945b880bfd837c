/**
 * The data battery's config keys, declared once: the app-facing type (`DataAppConfig`, added to
 * `AppConfig` of `@fwkit/koa-host` by module augmentation), the start-up check of unknown keys, the
 * defaults, the reading of environment strings and the rows of docs/configuration.md follow from it.
 * `dbUrl` and `timezone` are the host's keys (environment variables set them): read here, typed there.
 */
// The module augmented below must be part of the program.
import type {} from "@fwkit/koa-host";
import { defineConfigSchema, type InputOf, key } from "@fwkit/koa-host/config-schema";
import { DEFAULT_DATE_FORMAT } from "./dates.js";
import { DEFAULT_DB_URL } from "./db-url.js";
import { E_DATA_CONFIG_INVALID } from "./errors.js";

/** The data battery's keys. */
export const dataConfigSchema = defineConfigSchema(
  {
    dbUrl: key.string({
      doc: "Database URL; `DB_URL` in the environment wins (never in `test`, which reads `TEST_DB_URL`).",
      default: DEFAULT_DB_URL,
    }),
    dbPool: key.block(
      {
        min: key.int({ doc: "Fewest pooled connections (PostgreSQL, MySQL).", min: 0 }),
        max: key.int({ doc: "Most pooled connections (PostgreSQL, MySQL).", min: 0 }),
      },
      { doc: "Connection pool." },
    ),
    migrationsDir: key.string({ doc: "Migrations folder, relative to the root.", default: "migrations" }),
    timezone: key.string({ doc: "IANA time zone dates are shown in.", default: "UTC" }),
    dateFormat: key.string({ doc: "Default dayjs format of `formatDate`.", default: DEFAULT_DATE_FORMAT }),
    maxPerPage: key.int({ doc: "Largest `perPage` a client may ask for.", default: 100, min: 1 }),
  },
  { invalid: (path, expected, value) => new E_DATA_CONFIG_INVALID(path, expected, value) },
);

/** The keys of the host that data reads: typed by the host, not again here. */
type HostKeys = "dbUrl" | "timezone";

/** The config keys the data battery reads, as an app writes them (see docs/data.md). */
export interface DataAppConfig extends Omit<InputOf<typeof dataConfigSchema>, HostKeys> {}

declare module "@fwkit/koa-host" {
  // eslint-disable-next-line @typescript-eslint/no-empty-interface -- the merge is the point
  interface AppConfig extends DataAppConfig {}
}

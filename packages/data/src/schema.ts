/**
 * Column helpers for migrations, so every table a model uses has the same portable date columns:
 * millisecond precision everywhere (a JS Date round-trips exactly), `timestamptz` on PostgreSQL,
 * `DATETIME(3)` holding UTC on MySQL, epoch milliseconds on SQLite.
 */
import type { Knex } from "knex";

/** Adds a millisecond-precision date column (nullable unless chained with `.notNullable()`). */
export function dateColumn(table: Knex.CreateTableBuilder, name: string): Knex.ColumnBuilder {
  return table.datetime(name, { precision: 3 });
}

/** Adds `created_at` and `updated_at` (not null) and, with `softDelete`, a nullable `deleted_at`. */
export function modelTimestamps(table: Knex.CreateTableBuilder, options: { softDelete?: boolean } = {}): void {
  dateColumn(table, "created_at").notNullable();
  dateColumn(table, "updated_at").notNullable();
  if (options.softDelete) dateColumn(table, "deleted_at").nullable().index();
}

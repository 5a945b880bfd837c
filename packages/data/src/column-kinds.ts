/**
 * Booleans and JSON columns as JavaScript values on every dialect. SQLite stores a boolean as 0/1
 * and JSON as text, MariaDB a boolean as TINYINT(1) and JSON as LONGTEXT, so a model learns from
 * the table itself (once per database and table) which columns are booleans or JSON, turns them
 * back into `true`/`false` and parsed values on the way out, and writes JSON values as JSON text
 * on the way in (a driver would otherwise expand an object or an array into SQL lists).
 */
import type { Knex } from "knex";
import { dialectOfKnex } from "./connection.js";

/** The boolean and JSON columns of one table. */
export interface ColumnKinds {
  readonly booleans: ReadonlySet<string>;
  readonly json: ReadonlySet<string>;
}

/** No special columns: what a model uses before it has looked at its table. */
export const NO_COLUMN_KINDS: ColumnKinds = { booleans: new Set(), json: new Set() };

const known = new WeakMap<Knex, Map<string, ColumnKinds>>();

/** The kinds already learnt for `table` on `db`, if any. */
export function knownColumnKinds(db: Knex, table: string): ColumnKinds | undefined {
  return known.get(db)?.get(table);
}

/** Forgets what was learnt for `table` (a migration changed it). */
export function forgetColumnKinds(db: Knex, table?: string): void {
  if (table === undefined) known.delete(db);
  else known.get(db)?.delete(table);
}

type Rows = Record<string, unknown>[];

/** Rows of a raw query, whatever shape the driver answers with. */
function rowsOf(result: unknown): Rows {
  if (Array.isArray(result)) return (Array.isArray(result[0]) ? result[0] : result) as Rows;
  return ((result as { rows?: Rows }).rows ?? []) as Rows;
}

async function inspect(conn: Knex, dialect: string, table: string): Promise<ColumnKinds> {
  const booleans = new Set<string>();
  const json = new Set<string>();
  if (dialect === "sqlite") {
    for (const column of rowsOf(await conn.raw("select name, type from pragma_table_info(?)", [table]))) {
      const type = String(column["type"]).toLowerCase();
      if (type === "boolean") booleans.add(String(column["name"]));
      else if (type === "json" || type === "jsonb") json.add(String(column["name"]));
    }
  } else if (dialect === "mysql") {
    const columns = rowsOf(
      await conn.raw(
        "select column_name as name, column_type as type from information_schema.columns where table_schema = database() and table_name = ?",
        [table],
      ),
    );
    for (const column of columns) {
      const type = String(column["type"] ?? column["TYPE"]).toLowerCase();
      const name = String(column["name"] ?? column["NAME"]);
      if (type === "tinyint(1)") booleans.add(name);
      else if (type === "json") json.add(name);
    }
    // MariaDB's JSON is LONGTEXT with a json_valid() check.
    const checks = await conn
      .raw(
        "select check_clause as clause from information_schema.check_constraints where constraint_schema = database() and table_name = ?",
        [table],
      )
      .catch(() => [[]]);
    for (const check of rowsOf(checks)) {
      const match = /^json_valid\(`([^`]+)`\)$/i.exec(String(check["clause"] ?? check["CLAUSE"]).trim());
      if (match) json.add(match[1]!);
    }
  } else {
    const columns = rowsOf(
      await conn.raw(
        "select column_name as name, data_type as type from information_schema.columns where table_schema = current_schema() and table_name = ?",
        [table],
      ),
    );
    for (const column of columns) if (/^jsonb?$/.test(String(column["type"]))) json.add(String(column["name"]));
  }
  return { booleans, json };
}

/**
 * The boolean and JSON columns of `table`, learnt once per database (`base`) and table; `conn` is
 * the connection to ask on (the open transaction, so SQLite's single connection is not awaited).
 */
export async function columnKinds(base: Knex, conn: Knex, table: string): Promise<ColumnKinds> {
  const cached = knownColumnKinds(base, table);
  if (cached) return cached;
  const kinds = await inspect(conn, dialectOfKnex(base), table);
  // A table that does not exist (yet) is not remembered: the next call looks again.
  if (kinds.booleans.size > 0 || kinds.json.size > 0 || (await tableExists(conn, table))) {
    if (!known.has(base)) known.set(base, new Map());
    known.get(base)!.set(table, kinds);
  }
  return kinds;
}

async function tableExists(conn: Knex, table: string): Promise<boolean> {
  try {
    return await conn.schema.hasTable(table);
  } catch {
    return false;
  }
}

/** A stored boolean (`0`, `1`, `"0"`, `"1"`, `true`) as a boolean; null stays null. */
export function toBoolean(value: unknown): unknown {
  if (value === null || value === undefined || typeof value === "boolean") return value;
  if (typeof value === "number" || typeof value === "bigint") return Number(value) !== 0;
  if (typeof value === "string" && /^-?\d+$/.test(value)) return Number(value) !== 0;
  if (Buffer.isBuffer(value)) return value.some((byte) => byte !== 0);
  return value;
}

/** Stored JSON text as its value; values a driver parsed already are returned unchanged. */
export function fromJson(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** Converts one row's boolean and JSON columns in place (and returns it). */
export function convertColumnKinds<T>(row: T, kinds: ColumnKinds): T {
  if (row === null || typeof row !== "object") return row;
  const record = row as Record<string, unknown>;
  for (const column of kinds.booleans) if (column in record) record[column] = toBoolean(record[column]);
  for (const column of kinds.json) if (column in record) record[column] = fromJson(record[column]);
  return row;
}

/** Values to write: each JSON column's value (not null) as JSON text. */
export function jsonForWrite(values: Record<string, unknown>, kinds: ColumnKinds): Record<string, unknown> {
  if (kinds.json.size === 0) return values;
  const out = { ...values };
  for (const column of kinds.json) {
    if (column in out && out[column] !== null && out[column] !== undefined) out[column] = JSON.stringify(out[column]);
  }
  return out;
}

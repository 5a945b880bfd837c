/**
 * Turns the drivers' constraint and data errors into coded 4xx errors, so a duplicate e-mail or a
 * too-long title gives the client a clear answer instead of a 500. Each dialect names these
 * errors differently; this file is the one place that knows all three.
 */
import { FrameworkError } from "routing-kernel";
import { E_DB_UNREACHABLE, E_FOREIGN_KEY_VIOLATION, E_INVALID_DATA, E_UNIQUE_VIOLATION } from "./errors.js";

interface DriverError {
  code?: unknown;
  errno?: unknown;
  message?: unknown;
  detail?: unknown;
  constraint?: unknown;
  column?: unknown;
  sqlMessage?: unknown;
}

const MYSQL_DATA_ERRORS = new Set([1048, 1264, 1265, 1292, 1366, 1406, 1364, 3819]);
const MYSQL_FK_ERRORS = new Set([1451, 1452, 1216, 1217]);

/** True when the error is a driver's unique-constraint violation (any dialect). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as DriverError | null;
  if (!e || typeof e !== "object") return false;
  return (
    e.code === "23505" ||
    e.code === "ER_DUP_ENTRY" ||
    e.errno === 1062 ||
    e.code === "SQLITE_CONSTRAINT_UNIQUE" ||
    e.code === "SQLITE_CONSTRAINT_PRIMARYKEY"
  );
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** The column(s) a unique violation is about, as far as the driver says. */
function uniqueColumns(e: DriverError, table: string): string {
  const pgKey = /Key \(([^)]+)\)=/.exec(text(e.detail));
  if (pgKey?.[1]) return pgKey[1].replace(/"/g, "");
  const sqlite = /UNIQUE constraint failed: (.+)$/.exec(text(e.message));
  if (sqlite?.[1])
    return sqlite[1]
      .split(",")
      .map((c) => c.trim().replace(/^[^.]*\./, ""))
      .join(", ");
  const mysqlKey = /for key '([^']+)'/.exec(text(e.sqlMessage) || text(e.message));
  const key = mysqlKey?.[1] ?? text(e.constraint);
  if (key) {
    const bare = key.replace(/^.*\./, "");
    if (bare === "PRIMARY" || bare.endsWith("_pkey")) return "id";
    const prefix = `${table}_`;
    const inner = bare.startsWith(prefix) ? bare.slice(prefix.length) : bare;
    return inner.replace(/_(unique|key)$/, "").replace(/_/g, " ") || "value";
  }
  return "value";
}

function dataProblem(e: DriverError): string | undefined {
  const code = text(e.code);
  if (code === "23502") return `${text(e.column) || "a required column"} must have a value`;
  if (code.startsWith("22")) return text(e.message).replace(/^.* - /, "") || "a value has the wrong type or size";
  if (code === "SQLITE_CONSTRAINT_NOTNULL") {
    const column = /NOT NULL constraint failed: [^.]*\.(\S+)/.exec(text(e.message))?.[1];
    return `${column ?? "a required column"} must have a value`;
  }
  if (code === "SQLITE_CONSTRAINT_CHECK" || code === "23514") return "a value breaks a CHECK constraint";
  if (typeof e.errno === "number" && MYSQL_DATA_ERRORS.has(e.errno))
    return text(e.sqlMessage) || "a value has the wrong type or size";
  return undefined;
}

function isForeignKeyViolation(e: DriverError): boolean {
  return (
    e.code === "23503" ||
    e.code === "SQLITE_CONSTRAINT_FOREIGNKEY" ||
    // SQLite reports an ON DELETE RESTRICT refusal as a trigger constraint.
    (e.code === "SQLITE_CONSTRAINT_TRIGGER" && /FOREIGN KEY constraint failed/.test(text(e.message))) ||
    (typeof e.errno === "number" && MYSQL_FK_ERRORS.has(e.errno))
  );
}

/** The table a driver error names, when it names one (PostgreSQL `table`, SQLite's message). */
function tableOf(e: DriverError): string | undefined {
  const pgTable = (e as { table?: unknown }).table;
  if (typeof pgTable === "string" && pgTable) return pgTable;
  return /constraint failed: ([^.\s]+)\./.exec(text(e.message))?.[1];
}

// The server went away (restart, failover, network): the request gets 503, like readiness says,
// instead of an unexpected 500; the pool reconnects by itself once the server is back.
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08003",
  "08006",
  "PROTOCOL_CONNECTION_LOST",
]);
const CONNECTION_MESSAGES =
  /Connection terminated|Timeout acquiring a connection|connection is closed|Client has encountered a connection error/i;

/** True when a driver error says the connection or the server went away (not that the query was wrong). */
export function isConnectionLost(error: unknown): boolean {
  const e = error as DriverError | null;
  if (!e || typeof e !== "object") return false;
  return (
    (typeof e.code === "string" && CONNECTION_CODES.has(e.code)) || CONNECTION_MESSAGES.test(String(e.message ?? ""))
  );
}

/**
 * The coded error for a driver error about `table` (E_UNIQUE_VIOLATION 409,
 * E_FOREIGN_KEY_VIOLATION 409, E_INVALID_DATA 400), or the error itself when it is none of these.
 * Without `table`, the table the driver names is used.
 */
export function translateDbError(error: unknown, tableName?: string): unknown {
  if (error instanceof FrameworkError || !error || typeof error !== "object") return error;
  const e = error as DriverError;
  const table = tableName ?? tableOf(e) ?? "record";
  let coded: FrameworkError | undefined;
  if (isConnectionLost(e)) coded = new E_DB_UNREACHABLE("DB_URL", String(e.message ?? e.code));
  else if (isUniqueViolation(e)) coded = new E_UNIQUE_VIOLATION(table, uniqueColumns(e, table));
  else if (isForeignKeyViolation(e)) coded = new E_FOREIGN_KEY_VIOLATION(table);
  else {
    const problem = dataProblem(e);
    if (problem) coded = new E_INVALID_DATA(table, problem);
  }
  if (!coded) return error;
  (coded as { cause?: unknown }).cause = error;
  return coded;
}

/**
 * A foreign key written from a form that names no row: `create({ project_id: 999 })` breaks the
 * key, and the user should hear "Choose an existing project." on that field (422) rather than get
 * a bare 409 page. The column comes from the driver where it says (PostgreSQL's detail, MySQL's
 * message); SQLite does not say, so the written keys of the model's belongsTo relations are looked
 * up (SQLite's transactions stay usable after a constraint error, unlike PostgreSQL's).
 */
import { FrameworkError } from "routing-kernel";
import { E_FOREIGN_KEY_VIOLATION } from "../errors.js";
import { ValidationError } from "../validate.js";
import { internals, type RuntimeModel } from "./internal.js";
import { humanName } from "./naming.js";

/**
 * A foreign key names a row that does not exist. A ValidationError (422), so a form post comes
 * back with `Choose an existing project.` on the `project_id` field and a JSON client gets
 * `{ error: { fields: { project_id: [...] } } }`.
 */
export class RelatedRowMissing extends ValidationError {
  /** The table written to. */
  readonly table: string;
  /** The foreign key column whose value names no row. */
  readonly column: string;
  /** The belongsTo relation of that column, when one is declared. */
  readonly relation: string | undefined;

  constructor(table: string, column: string, relation: string | undefined, old: Record<string, unknown> = {}) {
    super({ [column]: [`Choose an existing ${humanName(relation ?? column)}.`] }, old);
    this.table = table;
    this.column = column;
    this.relation = relation;
  }
}

/** True for a {@link RelatedRowMissing}. */
export function isRelatedRowMissing(error: unknown): error is RelatedRowMissing {
  return error instanceof RelatedRowMissing;
}

const AUTOMATIC = new Set(["id", "created_at", "updated_at", "deleted_at"]);

interface DriverError {
  code?: unknown;
  errno?: unknown;
  detail?: unknown;
  message?: unknown;
  sqlMessage?: unknown;
}

/** The column a driver's foreign-key error names on the written row's side, when it names one. */
function columnFromDriver(driver: DriverError): string | undefined {
  const detail = typeof driver.detail === "string" ? driver.detail : "";
  const pg = /Key \(([^)]+)\)=\(.*\) is not present/.exec(detail)?.[1];
  if (pg) return pg.replace(/"/g, "");
  if (driver.errno === 1452) {
    const text = String(driver.sqlMessage ?? driver.message ?? "");
    return /FOREIGN KEY \(`([^`]+)`\)/.exec(text)?.[1];
  }
  return undefined;
}

/**
 * The {@link RelatedRowMissing} that `error` (from writing `data` to `model`) amounts to, or
 * undefined when it is another error (a parent still referenced, a key of no declared belongsTo relation).
 */
export async function missingParent(
  model: RuntimeModel,
  error: unknown,
  data: Record<string, unknown>,
): Promise<RelatedRowMissing | undefined> {
  if (!(error instanceof FrameworkError) || error.code !== E_FOREIGN_KEY_VIOLATION.code) return undefined;
  const driver = ((error as { cause?: unknown }).cause ?? {}) as DriverError;
  const inner = internals(model);
  const belongsTo = inner
    .relationNames()
    .map((name) => inner.relation(name))
    .filter((relation) => relation.kind === "belongsTo");
  // The values the user gave (what a form shows again), not the columns the model fills in.
  const old = Object.fromEntries(Object.entries(data).filter(([key]) => !AUTOMATIC.has(key)));
  const named = columnFromDriver(driver);
  if (named) {
    if (data[named] === undefined) return undefined;
    // Only keys of declared belongsTo relations: other foreign keys stay E_FOREIGN_KEY_VIOLATION
    // (409), the same on every dialect (SQLite can only check the declared ones).
    const relation = belongsTo.find((r) => r.ownerColumn === named);
    return relation ? new RelatedRowMissing(model.table, named, relation.name, old) : undefined;
  }
  if (driver.code !== "SQLITE_CONSTRAINT_FOREIGNKEY") return undefined;
  for (const relation of belongsTo) {
    const value = data[relation.ownerColumn];
    if (value === undefined || value === null) continue;
    const parent = internals(relation.target);
    try {
      const found = await parent
        .db()(relation.target.table)
        .where(relation.targetColumn, value as never)
        .first();
      if (!found) return new RelatedRowMissing(model.table, relation.ownerColumn, relation.name, old);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The SQL shape of each relation kind, in the two forms queries need: correlated to an outer row
 * (`whereHas`, `withCount`: related rows whose key equals the outer row's column) and keyed by a
 * list of owner keys (preloading many rows' relations at once).
 */
import type { Knex } from "knex";
import { convertConventionalDates } from "../date-columns.js";
import type { ResolvedRelation } from "./definitions.js";

type Builder = Knex.QueryBuilder;

/** The alias under which a joined query returns the owner key each related row belongs to. */
export const OWNER_KEY_ALIAS = "relation__owner_key";
/** The prefix of pivot columns in a many-to-many query's rows (moved into `pivot` afterwards). */
export const PIVOT_PREFIX = "pivot__";

/** Joins the intermediate table of a manyToMany / hasManyThrough relation onto `builder` (on the related table). */
function joinMiddle(relation: ResolvedRelation, builder: Builder): void {
  const target = relation.target.table;
  if (relation.kind === "manyToMany")
    builder.join(relation.pivot, `${relation.pivot}.${relation.relatedPivotKey}`, `${target}.${relation.targetColumn}`);
  if (relation.kind === "hasManyThrough" && relation.through) {
    const through = relation.through.table;
    builder.join(through, `${through}.${relation.throughKey}`, `${target}.${relation.targetColumn}`);
    if ((relation.through as { softDelete?: boolean }).softDelete) builder.whereNull(`${through}.deleted_at`);
  }
}

/** The column of the related side (or the pivot / intermediate table) holding the owner's key. */
export function ownerKeyColumn(relation: ResolvedRelation): string {
  if (relation.kind === "manyToMany") return `${relation.pivot}.${relation.foreignPivotKey}`;
  if (relation.kind === "hasManyThrough") return `${relation.through!.table}.${relation.firstKey}`;
  return `${relation.target.table}.${relation.targetColumn}`;
}

/** Limits `builder` (a query on the related table) to the rows related to the outer query's row. */
export function joinToOwner(relation: ResolvedRelation, builder: Builder): Builder {
  joinMiddle(relation, builder);
  return builder.whereRaw("?? = ??", [ownerKeyColumn(relation), `${relation.owner.table}.${relation.ownerColumn}`]);
}

/**
 * Limits `builder` to the rows related to owners with these keys, and selects the pivot columns
 * (the owner key among them) or, through an intermediate table, the owner key each row belongs
 * to (as {@link OWNER_KEY_ALIAS}). hasOne and hasMany rows carry their owner key as a column of
 * their own.
 */
export function keyedByOwners(relation: ResolvedRelation, builder: Builder, keys: readonly unknown[]): void {
  joinMiddle(relation, builder);
  const column = ownerKeyColumn(relation);
  builder.whereIn(column, keys as Knex.Value[]);
  if (relation.kind === "hasManyThrough") builder.select(`${column} as ${OWNER_KEY_ALIAS}`);
  if (relation.kind === "manyToMany") {
    const pivot = relation.pivot;
    const columns = [relation.foreignPivotKey, relation.relatedPivotKey, ...relation.pivotColumns];
    if (relation.pivotTimestamps) columns.push("created_at", "updated_at");
    for (const name of columns) builder.select(`${pivot}.${name} as ${PIVOT_PREFIX}${name}`);
  }
}

/** The owner key a row loaded by {@link keyedByOwners} belongs to (after {@link splitPivot}). */
export function ownerKeyOf(relation: ResolvedRelation, row: Record<string, unknown>): unknown {
  if (relation.kind === "manyToMany") return (row["pivot"] as Record<string, unknown>)[relation.foreignPivotKey];
  if (relation.kind === "hasManyThrough") return row[OWNER_KEY_ALIAS];
  return row[relation.targetColumn];
}

/**
 * A many-to-many row as returned: a new object with the related table's columns and, last, its
 * pivot columns under `pivot` (their `*_at` dates as Date). Built anew rather than by deleting
 * the prefixed keys: a row whose properties were deleted becomes a slow dictionary object.
 */
export function splitPivot(raw: Record<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  const pivot: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) {
    if (key.startsWith(PIVOT_PREFIX)) pivot[key.slice(PIVOT_PREFIX.length)] = raw[key];
    else if (key !== OWNER_KEY_ALIAS) row[key] = raw[key];
  }
  convertConventionalDates(pivot);
  row["pivot"] = pivot;
  return row;
}

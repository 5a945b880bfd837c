/**
 * Eager loading: the relations of many rows in one query per relation. The owners' keys are
 * collected, the related rows fetched with `where key in (...)` (through the pivot or
 * intermediate table when there is one), and each owner gets its rows; nested paths then load
 * on all the related rows together, so `project.owner` is one more query, not one per project.
 */
import type { Knex } from "knex";
import type { ResolvedRelation } from "./definitions.js";
import { relationOf, type RuntimeModel } from "./internal.js";
import type { RelationQuery } from "./query-types.js";
import { keyedByOwners, OWNER_KEY_ALIAS, ownerKeyColumn, ownerKeyOf, splitPivot } from "./subqueries.js";

type Row = Record<string, unknown>;

/** How a relation's own query shapes its rows (the pivot of many-to-many, a one-row result). */
export interface QueryShape {
  /** Runs before the caller's conditions: the relation's join and key condition. */
  readonly base?: (builder: Knex.QueryBuilder) => void;
  /** Turns each raw row into the row to hydrate and return: pivot columns moved into `pivot`. */
  readonly prepare?: (raw: Row) => Row;
  /**
   * The column holding each row's owner key when the query loads many owners' rows: `limit` and
   * `offset` then count per owner.
   */
  readonly partition?: string;
  /** Awaiting gives the first row or null (belongsTo, hasOne). */
  readonly one?: boolean;
}

/**
 * Makes the query that loads a relation's rows. The query class passes itself in, so eager loading
 * and the query that preloads stay two modules without importing each other.
 */
export type QueryMaker = (model: RuntimeModel, shape: QueryShape) => { all(): Promise<Row[]> };

/** One relation to preload, its constraint, and the relations to load inside it. */
export interface PreloadNode {
  readonly name: string;
  constraint: ((query: RelationQuery<unknown>) => unknown) | undefined;
  readonly children: Map<string, PreloadNode>;
}

/** True for the kinds whose value is one row or null. */
export function isOneKind(relation: ResolvedRelation): boolean {
  return relation.kind === "belongsTo" || relation.kind === "hasOne";
}

/** A key as a map key: drivers give bigint keys as strings on one dialect and numbers on another. */
function keyOf(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

/** Sets a loaded relation: a plain property, so a row's JSON shows exactly the relations loaded. */
function assign(row: Row, name: string, value: unknown): void {
  row[name] = value;
}

/** Loads one relation into `rows` and returns every related row loaded (for nested paths). */
export async function loadRelation(
  relation: ResolvedRelation,
  rows: readonly Row[],
  constraint: ((query: RelationQuery<unknown>) => unknown) | undefined,
  makeQuery: QueryMaker,
): Promise<Row[]> {
  const one = isOneKind(relation);
  const keys = [
    ...new Map(
      rows
        .map((row) => row[relation.ownerColumn])
        .filter((key) => key !== null && key !== undefined)
        .map((key) => [keyOf(key), key] as const),
    ).values(),
  ];
  if (keys.length === 0) {
    for (const row of rows) assign(row, relation.name, one ? null : []);
    return [];
  }
  const target = relation.target as RuntimeModel;
  const belongs = relation.kind === "belongsTo";
  const query = makeQuery(target, {
    base: belongs
      ? (builder) => builder.whereIn(`${target.table}.${relation.targetColumn}`, keys as never[])
      : (builder) => keyedByOwners(relation, builder, keys),
    partition: belongs ? `${target.table}.${relation.targetColumn}` : ownerKeyColumn(relation),
    prepare: relation.kind === "manyToMany" ? splitPivot : undefined,
  });
  if (constraint) constraint(query as unknown as RelationQuery<unknown>);
  const related = await query.all();
  const byOwner = new Map<string, Row[]>();
  for (const row of related) {
    const owner = keyOf(ownerKeyOf(relation, row));
    if (relation.kind === "hasManyThrough") delete row[OWNER_KEY_ALIAS];
    const list = byOwner.get(owner);
    if (list) list.push(row);
    else byOwner.set(owner, [row]);
  }
  for (const row of rows) {
    const key = row[relation.ownerColumn];
    const found = key === null || key === undefined ? [] : (byOwner.get(keyOf(key)) ?? []);
    // Many-to-many rows come once per pivot row, so each owner's rows carry their own pivot.
    assign(row, relation.name, one ? (found[0] ?? null) : found);
  }
  return related;
}

/** Loads the preload tree `nodes` into `rows` of `model`. */
export async function loadTree(
  model: RuntimeModel,
  rows: readonly Row[],
  nodes: ReadonlyMap<string, PreloadNode>,
  makeQuery: QueryMaker,
): Promise<void> {
  if (rows.length === 0 && nodes.size > 0) return;
  for (const node of nodes.values()) {
    const relation = relationOf(model, node.name);
    const related = await loadRelation(relation, rows, node.constraint, makeQuery);
    if (node.children.size > 0) await loadTree(relation.target as RuntimeModel, related, node.children, makeQuery);
  }
}

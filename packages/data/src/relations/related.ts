/**
 * One row's relation as a query (`Task.related(task, "project")`, `Project.related(project,
 * "tasks").where(...)`): awaiting it gives the related row (or null) or rows, and the writes of
 * its kind are on it: `create` for hasOne/hasMany, `create`/`attach`/`detach`/`sync` for
 * manyToMany.
 */
import { E_RELATION_WRITE } from "../errors.js";
import type { ResolvedRelation } from "./definitions.js";
import { isOneKind } from "./eager.js";
import { relationOf, type RuntimeModel } from "./internal.js";
import { RelationQueryImpl } from "./query.js";
import { extractPivot, keyedByOwners, OWNER_KEY_ALIAS } from "./subqueries.js";
import { pivotWrites } from "./pivot-writes.js";

type Row = Record<string, unknown>;

function refuse(relation: ResolvedRelation, write: string): never {
  const use =
    relation.kind === "belongsTo"
      ? `set the row's ${relation.ownerColumn} with update(), or create the child through the parent's hasMany`
      : "create the related rows through their own model";
  throw new E_RELATION_WRITE(`${relation.owner.table}.${relation.name}`, relation.kind, write, use);
}

/** The query of `row`'s relation `name` on `model`, with the writes of its kind. */
export function relatedQuery(model: RuntimeModel, row: Row, name: string): RelationQueryImpl & Record<string, unknown> {
  const relation = relationOf(model, name);
  const target = relation.target as RuntimeModel;
  const key = row[relation.ownerColumn];
  const belongs = relation.kind === "belongsTo";
  const query = new RelationQueryImpl(target, {
    one: isOneKind(relation),
    base: (builder) => {
      // A row without the key (a null foreign key) has no related rows.
      if (key === null || key === undefined) builder.whereRaw("1 = 0");
      else if (belongs) builder.where(`${target.table}.${relation.targetColumn}`, key as never);
      else keyedByOwners(relation, builder, [key]);
    },
    post: (related) => {
      if (relation.kind === "manyToMany") related["pivot"] = extractPivot(related);
      delete related[OWNER_KEY_ALIAS];
    },
  });
  const writes: Record<string, unknown> = {};
  if (relation.kind === "hasMany" || relation.kind === "hasOne") {
    writes["create"] = (data: Row) => target.create({ ...data, [relation.targetColumn]: key });
  } else if (relation.kind === "manyToMany") {
    Object.assign(writes, pivotWrites(relation, key));
  } else {
    for (const write of ["create", "attach", "detach", "sync"]) writes[write] = () => refuse(relation, write);
  }
  return Object.assign(query, writes);
}

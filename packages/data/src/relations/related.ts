/**
 * One row's relation as a query (`Task.related(task, "project")`, `Project.related(project,
 * "tasks").where(...)`): awaiting it gives the related row (or null) or rows, and the writes of
 * its kind are on it: `associate`/`dissociate` for belongsTo, `create` for hasOne/hasMany
 * (`createMany` too for hasMany), `create`/`attach`/`detach`/`sync` for manyToMany.
 */
import { E_RELATION_WRITE } from "../errors.js";
import type { ResolvedRelation } from "./definitions.js";
import { isOneKind } from "./eager.js";
import { transaction } from "../transaction.js";
import { internals, relationOf, type RuntimeModel } from "./internal.js";
import { RelationQueryImpl } from "./query.js";
import { keyedByOwners, OWNER_KEY_ALIAS, splitPivot } from "./subqueries.js";
import { pivotWrites } from "./pivot-writes.js";

type Row = Record<string, unknown>;

function refuse(relation: ResolvedRelation, write: string): never {
  const use =
    relation.kind === "belongsTo"
      ? `use associate(parent) or dissociate(), or create the child through the parent's hasMany`
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
    prepare: (raw) => {
      if (relation.kind === "manyToMany") return splitPivot(raw);
      delete raw[OWNER_KEY_ALIAS];
      return raw;
    },
  });
  const writes: Record<string, unknown> = {};
  if (relation.kind === "hasMany" || relation.kind === "hasOne") {
    const create = (data: Row) => target.create({ ...data, [relation.targetColumn]: key });
    writes["create"] = create;
    if (relation.kind === "hasMany")
      writes["createMany"] = (list: readonly Row[]) =>
        transaction(internals(target).base(), async () => {
          const created: Row[] = [];
          for (const data of list) created.push(await create(data));
          return created;
        });
  } else if (relation.kind === "manyToMany") {
    Object.assign(writes, pivotWrites(relation, key));
  } else if (belongs) {
    Object.assign(writes, belongsToWrites(model, row, relation));
    for (const write of ["create", "attach", "detach", "sync"]) writes[write] = () => refuse(relation, write);
  } else {
    for (const write of ["create", "attach", "detach", "sync"]) writes[write] = () => refuse(relation, write);
  }
  return Object.assign(query, writes);
}

/**
 * associate / dissociate of a belongsTo: the child's foreign key set to the parent's key, or to
 * null, with update() (so on the open transaction, updated_at set, a missing parent a 422 field
 * error). The row given gets the stored columns, and the relation when it was loaded on it.
 */
function belongsToWrites(model: RuntimeModel, row: Row, relation: ResolvedRelation): Record<string, unknown> {
  const write = async (parent: Row | null): Promise<Row> => {
    const value = parent === null ? null : parent[relation.targetColumn];
    if (parent !== null && (value === null || value === undefined))
      throw new E_RELATION_WRITE(
        `${relation.owner.table}.${relation.name}`,
        relation.kind,
        "associate",
        `pass a stored ${relation.target.table} row (one with its ${relation.targetColumn})`,
      );
    const stored = await model.update(row["id"], { [relation.ownerColumn]: value });
    Object.assign(row, stored);
    if (Object.hasOwn(row, relation.name)) row[relation.name] = parent;
    return row;
  };
  return { associate: (parent: Row) => write(parent), dissociate: () => write(null) };
}

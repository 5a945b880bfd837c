/**
 * Factory relations: `Tasks.for(project)` sets the task's foreign key from a parent row (the
 * belongsTo relation is found by the parent's model, or named), and `Projects.with("tasks", 3)`
 * or `Projects.has(Tasks, 3)` creates children after each project (hasMany/hasOne: the children's
 * key set; manyToMany: created, then attached).
 */
import { E_FACTORY_DEFINITION, E_RELATION_DEFINITION } from "../errors.js";
import type { ResolvedRelation } from "../relations/definitions.js";
import { internals } from "../relations/internal.js";
import { pivotWrites } from "../relations/pivot-writes.js";
import { modelOfRow } from "../relations/serialize.js";
import type { RowSource } from "../relations/types.js";

/** What relation states need of a factory. */
export interface ChildFactory {
  readonly model: RowSource;
  createMany(count: number, overrides?: never): Promise<object[]>;
}

const factories = new Map<RowSource, ChildFactory>();

/** Remembers the factory of a model (the last one defined), for `with("relation", count)`. */
export function registerFactory(factory: ChildFactory): void {
  factories.set(factory.model, factory);
}

function relationsOf(model: RowSource): ResolvedRelation[] {
  const inner = internals(model);
  return inner.relationNames().map((name) => inner.relation(name));
}

/** The relation `name`, or the only relation of these kinds to `target`. */
function pick(
  model: RowSource,
  kinds: readonly string[],
  target: RowSource | undefined,
  name: string | undefined,
  what: string,
): ResolvedRelation {
  const candidates = relationsOf(model).filter(
    (relation) =>
      kinds.includes(relation.kind) && (name === undefined ? relation.target === target : relation.name === name),
  );
  if (candidates.length === 1) return candidates[0]!;
  const why =
    candidates.length === 0
      ? `it has no ${kinds.join("/")} relation ${name ? `named "${name}"` : `to ${target?.table ?? "that row's model"}`}`
      : `it has several relations to ${target?.table}; name the one meant (${candidates.map((r) => r.name).join(", ")})`;
  throw new E_RELATION_DEFINITION(`${model.table} (${what})`, why);
}

/** The value of one column of a row, whatever the row's declared type. */
function columnOf(row: object, column: string): unknown {
  return (row as Record<string, unknown>)[column];
}

/** The overrides `for(parent)` gives: the belongsTo relation's foreign key set to the parent's key. */
export function parentOverrides(model: RowSource, parent: object, name?: string): Record<string, unknown> {
  const parentModel = modelOfRow(parent) as RowSource | undefined;
  const relation = pick(model, ["belongsTo"], parentModel, name, "factory for()");
  return { [relation.ownerColumn]: columnOf(parent, relation.targetColumn) };
}

/** The afterCreate callback of `with("tasks", 3)` / `has(Tasks, 3)`: creates and relates the children. */
export function childrenCallback(
  model: RowSource,
  count: number,
  options: { name?: string; factory?: ChildFactory; overrides?: Record<string, unknown> },
): (row: object) => Promise<void> {
  const relation = pick(
    model,
    ["hasMany", "hasOne", "manyToMany"],
    options.factory?.model,
    options.name,
    "factory with()/has()",
  );
  const factory = options.factory ?? factories.get(relation.target);
  if (!factory)
    throw new E_FACTORY_DEFINITION(
      `${relation.target.table} (define its factory before using with("${relation.name}"))`,
    );
  return async (row) => {
    const key = columnOf(row, relation.ownerColumn);
    if (relation.kind === "manyToMany") {
      const children = await factory.createMany(count, options.overrides as never);
      await pivotWrites(relation, key).attach(
        children.map((child) => columnOf(child, relation.targetColumn) as number),
      );
      return;
    }
    await factory.createMany(count, { ...options.overrides, [relation.targetColumn]: key } as never);
  };
}

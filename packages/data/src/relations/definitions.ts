/**
 * `belongsTo`, `hasOne`, `hasMany`, `manyToMany` and `hasManyThrough`: what a model's
 * `.relations({...})` thunks return, and how a declared relation becomes its resolved keys (the
 * conventions of naming.ts filled in where the options are silent). Options are checked when the
 * relation is first resolved: an unknown key is an error naming the known ones.
 */
import { E_RELATION_DEFINITION } from "../errors.js";
import { keyColumnOf, singular } from "./naming.js";
import type {
  BelongsToOptions,
  HasManyOptions,
  HasManyThroughOptions,
  ManyToManyOptions,
  RelationDefinition,
  RelationKind,
  RowSource,
} from "./types.js";

/** The row belongs to a parent whose key it holds (`tasks.project_id` -> `projects.id`). */
export function belongsTo<M extends RowSource>(
  model: M,
  options: BelongsToOptions = {},
): RelationDefinition<"belongsTo", M> {
  return { kind: "belongsTo", model, options: { ...options } };
}

/** The row has one child holding its key (`users.id` <- `profiles.user_id`). */
export function hasOne<M extends RowSource>(model: M, options: HasManyOptions = {}): RelationDefinition<"hasOne", M> {
  return { kind: "hasOne", model, options: { ...options } };
}

/** The row has children holding its key (`projects.id` <- `tasks.project_id`). */
export function hasMany<M extends RowSource>(model: M, options: HasManyOptions = {}): RelationDefinition<"hasMany", M> {
  return { kind: "hasMany", model, options: { ...options } };
}

/** Rows related through a pivot table of key pairs (`task_assignees(task_id, user_id, role)`). */
export function manyToMany<M extends RowSource, P extends string = never>(
  model: M,
  options: ManyToManyOptions<P> = {},
): RelationDefinition<"manyToMany", M, P> {
  return { kind: "manyToMany", model, options: { ...options } };
}

/** Rows reached through an intermediate model (`projects` -> `tasks` -> `comments`). */
export function hasManyThrough<M extends RowSource>(
  model: M,
  through: RowSource,
  options: HasManyThroughOptions = {},
): RelationDefinition<"hasManyThrough", M> {
  return { kind: "hasManyThrough", model, through, options: { ...options } };
}

/** A relation with every key named: what loading, querying and writing use. */
export interface ResolvedRelation {
  readonly name: string;
  readonly kind: RelationKind;
  /** The model declaring the relation. */
  readonly owner: RowSource;
  /** The related model. */
  readonly target: RowSource;
  /** The intermediate model of hasManyThrough. */
  readonly through: RowSource | undefined;
  /**
   * The column on the owner side rows are matched by (belongsTo: the foreign key; others: the
   * local key), and the column on the related side it equals (belongsTo: the owner key; hasMany:
   * the children's foreign key).
   */
  readonly ownerColumn: string;
  readonly targetColumn: string;
  /** manyToMany: the pivot table and its two key columns, its own columns, timestamps. */
  readonly pivot: string;
  readonly foreignPivotKey: string;
  readonly relatedPivotKey: string;
  readonly pivotColumns: readonly string[];
  readonly pivotTimestamps: boolean;
  /** hasManyThrough: the intermediate table's column holding the owner's key, and its own key. */
  readonly firstKey: string;
  readonly throughKey: string;
}

const KNOWN: Record<RelationKind, readonly string[]> = {
  belongsTo: ["foreignKey", "ownerKey"],
  hasOne: ["foreignKey", "localKey"],
  hasMany: ["foreignKey", "localKey"],
  manyToMany: [
    "pivot",
    "foreignPivotKey",
    "relatedPivotKey",
    "localKey",
    "relatedKey",
    "pivotColumns",
    "pivotTimestamps",
  ],
  hasManyThrough: ["firstKey", "secondKey", "localKey", "throughKey"],
};

function isRowSource(value: unknown): value is RowSource {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as RowSource).table === "string" &&
    typeof (value as RowSource).hydrate === "function"
  );
}

/** Resolves the relation `name` of `owner` from what its thunk returned. */
export function resolveRelation(owner: RowSource, name: string, declared: unknown): ResolvedRelation {
  const where = `${owner.table}.${name}`;
  const definition = declared as RelationDefinition | undefined;
  if (!definition || typeof definition !== "object" || !(definition.kind in KNOWN))
    throw new E_RELATION_DEFINITION(
      where,
      "its function must return belongsTo(...), hasOne, hasMany, manyToMany or hasManyThrough",
    );
  if (!isRowSource(definition.model))
    throw new E_RELATION_DEFINITION(where, "the related model is not a model from defineModel (is it declared yet?)");
  const known = KNOWN[definition.kind];
  const options = definition.options as Record<string, unknown>;
  for (const key of Object.keys(options)) {
    if (!known.includes(key))
      throw new E_RELATION_DEFINITION(where, `${definition.kind} has no option "${key}" (known: ${known.join(", ")})`);
    const value = options[key];
    const ok =
      key === "pivotColumns"
        ? Array.isArray(value) && value.every((c) => typeof c === "string" && c)
        : key === "pivotTimestamps"
          ? typeof value === "boolean"
          : typeof value === "string" && value.length > 0;
    if (!ok && value !== undefined)
      throw new E_RELATION_DEFINITION(where, `the option ${key} has a value it cannot use`);
  }
  const option = (key: string, fallback: string): string => (options[key] as string | undefined) ?? fallback;
  const target = definition.model;
  const base = {
    name,
    kind: definition.kind,
    owner,
    target,
    through: undefined,
    pivot: "",
    foreignPivotKey: "",
    relatedPivotKey: "",
    pivotColumns: [],
    pivotTimestamps: false,
    firstKey: "",
    throughKey: "",
  };
  switch (definition.kind) {
    case "belongsTo":
      return { ...base, ownerColumn: option("foreignKey", `${name}_id`), targetColumn: option("ownerKey", "id") };
    case "hasOne":
    case "hasMany":
      return {
        ...base,
        ownerColumn: option("localKey", "id"),
        targetColumn: option("foreignKey", keyColumnOf(owner.table)),
      };
    case "manyToMany":
      return {
        ...base,
        ownerColumn: option("localKey", "id"),
        targetColumn: option("relatedKey", "id"),
        pivot: option("pivot", `${singular(owner.table)}_${name}`),
        foreignPivotKey: option("foreignPivotKey", keyColumnOf(owner.table)),
        relatedPivotKey: option("relatedPivotKey", keyColumnOf(target.table)),
        pivotColumns: (options["pivotColumns"] as string[] | undefined) ?? [],
        pivotTimestamps: (options["pivotTimestamps"] as boolean | undefined) ?? false,
      };
    case "hasManyThrough": {
      const through = definition.through;
      if (!isRowSource(through))
        throw new E_RELATION_DEFINITION(where, "hasManyThrough needs the intermediate model as its second argument");
      return {
        ...base,
        through,
        ownerColumn: option("localKey", "id"),
        firstKey: option("firstKey", keyColumnOf(owner.table)),
        throughKey: option("throughKey", "id"),
        targetColumn: option("secondKey", keyColumnOf(through.table)),
      };
    }
  }
}

/**
 * The types of relations: what `belongsTo(Project)` and friends return, and how a relation path
 * such as `"project.owner"` turns into the properties a preloaded row gains. Relations are
 * declared as thunks (`project: () => belongsTo(Project)`) because a function's return type is
 * resolved lazily: two models can then name each other without a circular-type error.
 */
import type { BaseRow } from "../row-types.js";

/** Keys the relation map in a model's type (the property is never set; it only carries the type). */
export const RELATIONS: unique symbol = Symbol.for("data.relations") as never;

/** Anything with rows of type R: a model (structural, so this file does not import Model). */
export interface RowSource<R extends BaseRow = BaseRow> {
  readonly table: string;
  hydrate(row: object): R;
}

/** The relation kinds. One-kinds load `Row | null`, many-kinds `Row[]`. */
export type RelationKind = "belongsTo" | "hasOne" | "hasMany" | "manyToMany" | "hasManyThrough";

/** Options of `belongsTo`: the row holds the key of its parent. */
export interface BelongsToOptions {
  /** The column of this model's table holding the parent's key (default: relation name + `_id`). */
  readonly foreignKey?: string;
  /** The parent's column it refers to (default `id`). */
  readonly ownerKey?: string;
}

/** Options of `hasOne` / `hasMany`: the children hold this row's key. */
export interface HasManyOptions {
  /** The children's column holding this row's key (default: this table in the singular + `_id`). */
  readonly foreignKey?: string;
  /** This row's column they refer to (default `id`). */
  readonly localKey?: string;
}

/** Options of `manyToMany`: a pivot table holds pairs of keys (and maybe columns of its own). */
export interface ManyToManyOptions<P extends string = never> {
  /** The pivot table (default: this table in the singular + `_` + the relation name, `task_assignees`). */
  readonly pivot?: string;
  /** The pivot's column holding this row's key (default: this table in the singular + `_id`). */
  readonly foreignPivotKey?: string;
  /** The pivot's column holding the related row's key (default: the related table in the singular + `_id`). */
  readonly relatedPivotKey?: string;
  /** This row's column the pivot refers to (default `id`). */
  readonly localKey?: string;
  /** The related row's column the pivot refers to (default `id`). */
  readonly relatedKey?: string;
  /** Pivot columns read into each related row's `pivot` and written by attach/sync. */
  readonly pivotColumns?: readonly P[];
  /** The pivot has created_at/updated_at, set on attach and sync. */
  readonly pivotTimestamps?: boolean;
}

/** Options of `hasManyThrough`: rows reached through an intermediate table (project -> tasks -> comments). */
export interface HasManyThroughOptions {
  /** The intermediate table's column holding this row's key (default: this table in the singular + `_id`). */
  readonly firstKey?: string;
  /** The related table's column holding the intermediate row's key (default: its table in the singular + `_id`). */
  readonly secondKey?: string;
  /** This row's column (default `id`). */
  readonly localKey?: string;
  /** The intermediate row's column (default `id`). */
  readonly throughKey?: string;
}

/** A declared relation: its kind, the related model and its options. */
export interface RelationDefinition<K extends RelationKind = RelationKind, M = unknown, P extends string = string> {
  readonly kind: K;
  readonly model: M;
  readonly options: Readonly<Record<string, unknown>>;
  /** The intermediate model of hasManyThrough. */
  readonly through?: RowSource;
  /** Type-level only: the pivot columns of manyToMany. */
  readonly pivotColumns?: readonly P[];
}

/** The map a model's `.relations({...})` declares: each relation is a thunk giving its definition. */
export type RelationMap = { readonly [name: string]: () => RelationDefinition };

/** The relation map of a model type (empty when it declares none). */
export type RelationsOf<M> = M extends { readonly [RELATIONS]?: infer Rel } ? Rel : {};

/** The row type of a model type. */
export type ModelRow<M> = M extends { hydrate(row: Record<string, unknown>): infer R } ? R : never;

type DefinitionOf<T> = T extends () => infer D ? D : never;
type TargetOf<T> = DefinitionOf<T> extends RelationDefinition<RelationKind, infer M> ? M : never;
type KindOf<T> = DefinitionOf<T> extends RelationDefinition<infer K> ? K : never;
type PivotOf<T> = DefinitionOf<T> extends RelationDefinition<"manyToMany", unknown, infer P> ? P : never;

/** What a many-to-many row carries besides its columns: its pivot row's columns. */
export interface PivotRow<P extends string = string> {
  readonly pivot: { readonly [K in P]: unknown } & Record<string, unknown>;
}

/** One related row as loaded: its columns, what was loaded inside it, and the pivot for many-to-many. */
export type RelatedRow<T, Inner> = ModelRow<TargetOf<T>> &
  Inner &
  (KindOf<T> extends "manyToMany" ? PivotRow<PivotOf<T>> : unknown);

/** The value a loaded relation holds: one row or null, or an array of rows. */
export type RelationValue<T, Inner = unknown> =
  KindOf<T> extends "belongsTo" | "hasOne" ? RelatedRow<T, Inner> | null : RelatedRow<T, Inner>[];

/** The result of awaiting a lazy relation query (`Task.related(task, "project")`). */
export type RelatedResult<T> = RelationValue<T>;

type Prev = [never, 0, 1, 2, 3];

/**
 * Every relation path of a relation map, to three levels: `"project"`, `"project.owner"`,
 * `"project.owner.team"`. A name not declared is not a path, so a typo is a compile error.
 */
export type RelationPath<Rel, Depth extends number = 3> = [Depth] extends [never]
  ? never
  : {
      [K in keyof Rel & string]: K | `${K}.${RelationPath<RelationsOf<TargetOf<Rel[K]>>, Prev[Depth]>}`;
    }[keyof Rel & string];

/** The properties a row gains when `path` is preloaded (`"project.owner"` gives `project: (P & { owner: U | null }) | null`). */
export type Preloaded<Rel, Path extends string> = Path extends `${infer Head}.${infer Rest}`
  ? Head extends keyof Rel
    ? { [K in Head]: RelationValue<Rel[K], Preloaded<RelationsOf<TargetOf<Rel[K]>>, Rest>> }
    : never
  : Path extends keyof Rel
    ? { [K in Path]: RelationValue<Rel[K]> }
    : never;

/** The model a relation path ends on (for a preload's constraint callback). */
export type PathTarget<Rel, Path extends string> = Path extends `${infer Head}.${infer Rest}`
  ? Head extends keyof Rel
    ? PathTarget<RelationsOf<TargetOf<Rel[Head]>>, Rest>
    : never
  : Path extends keyof Rel
    ? TargetOf<Rel[Path]>
    : never;

/** The related model of relation `K`. */
export type RelationTarget<Rel, K extends keyof Rel> = TargetOf<Rel[K]>;

/** The kind of relation `K`. */
export type RelationKindOf<Rel, K extends keyof Rel> = KindOf<Rel[K]>;

/** The names of relations of the given kinds. */
export type RelationNamesOfKind<Rel, Kinds extends RelationKind> = {
  [K in keyof Rel & string]: KindOf<Rel[K]> extends Kinds ? K : never;
}[keyof Rel & string];

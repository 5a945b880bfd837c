/**
 * The types of the model API: what a row must have, what `create` and `update` accept, and the
 * methods a model offers. Separate from the implementation so the contract reads in one place.
 */
import type { Knex } from "knex";
import type { RelatedQuery, RelationConstraint, RelationQuery } from "./relations/query-types.js";
import type { PathTarget, Preloaded, RELATIONS, RelationPath, RelationTarget } from "./relations/types.js";

import type { BaseRow, CreateInput, UpdateInput } from "./row-types.js";

export type { AutoColumns, BaseRow, CreateInput, SoftDeleteRow, UpdateInput } from "./row-types.js";

/** Options of `defineModel`. */
export interface ModelOptions<R> {
  /** Keep deleted rows with `deleted_at` set and hide them unless asked (`withTrashed()`). */
  readonly softDelete?: boolean;
  /** `integer` (default): ids from URLs that are not whole numbers find nothing instead of failing. */
  readonly idType?: "integer" | "string";
  /**
   * Extra date columns to return as Date objects. Columns named `*_at` are dates already; list
   * others here (SQLite stores dates as numbers and cannot tell on its own).
   */
  readonly dates?: readonly (keyof R & string)[];
  /**
   * Columns left out of a row's JSON (`password_hash`): API answers, the console and rows nested
   * in another row's loaded relation never show them. The row object itself still has them.
   */
  readonly hidden?: readonly (keyof R & string)[];
}

/** Which rows a model view sees. */
export type ModelScope = "active" | "all" | "trashed";

/** The read and write methods of a model, on the rows its scope sees. */
export interface ModelMethods<R extends BaseRow> {
  /** The table name. */
  readonly table: string;
  /** True when deletes only set `deleted_at`. */
  readonly softDelete: boolean;
  /** The rows this view sees: `active` (default), `all` (withTrashed) or `trashed` (onlyTrashed). */
  readonly scope: ModelScope;
  /** The knex instance the model is bound to (E_MODEL_UNBOUND before binding). */
  readonly knex: Knex;
  /** A knex query builder on the table, limited to this view's rows; SQL goes through bindings. */
  query(): Knex.QueryBuilder<R, R[]>;
  /** The row with this id, or undefined. */
  find(id: R["id"] | string): Promise<R | undefined>;
  /** The row with this id; E_ROW_NOT_FOUND (404) otherwise. */
  findOrFail(id: R["id"] | string): Promise<R>;
  /** The first row (by id) whose columns equal the given values, or undefined. */
  findBy(where: Partial<R>): Promise<R | undefined>;
  /** Like findBy; E_ROW_NOT_FOUND (404) when nothing matches. */
  findByOrFail(where: Partial<R>): Promise<R>;
  /** Every row whose columns equal the given values, by id. */
  where(where: Partial<R>): Promise<R[]>;
  /** Every row, by id. */
  all(): Promise<R[]>;
  /** How many rows this view sees. */
  count(): Promise<number>;
  /** Inserts a row (timestamps set) and returns it as stored. Unique violation: E_UNIQUE_VIOLATION (409). */
  create(data: CreateInput<R>): Promise<R>;
  /** Changes a row (updated_at set) and returns it as stored; E_ROW_NOT_FOUND (404) when absent. */
  update(id: R["id"] | string, patch: UpdateInput<R>): Promise<R>;
  /** Deletes a row (soft when the model soft-deletes); false when there was none. */
  delete(id: R["id"] | string): Promise<boolean>;
  /** Deletes a row for good, soft delete or not; false when there was none. */
  forceDelete(id: R["id"] | string): Promise<boolean>;
  /** Brings back a soft-deleted row and returns it; E_ROW_NOT_FOUND (404) when no deleted row has this id. */
  restore(id: R["id"] | string): Promise<R>;
  /** Runs `fn` in a transaction that every model on this database joins; rolled back when it throws. */
  transaction<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T>;
  /** Turns a raw row (from `query()` or `knex.raw`) into a row with Date objects for its date columns. */
  hydrate(row: object): R;
}

/** Turns a union of object types into their intersection (for loading several paths at once). */
type AllOf<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/**
 * A model: its methods on live rows, plus views on deleted rows and its binding, and the
 * relations declared with `.relations({...})` (`Rel`, none by default).
 */
// biome-ignore lint/complexity/noBannedTypes: no relations is the empty object type.
export interface Model<R extends BaseRow, Rel = {}> extends ModelMethods<R> {
  /** Type-level only: the declared relations. */
  readonly [RELATIONS]?: Rel;
  /**
   * Declares relations, each as a function so models can refer to each other:
   * `.relations({ project: () => belongsTo(Project), tags: () => manyToMany(Tag) })`.
   * Returns the same model, typed with them.
   */
  relations<Add>(relations: Add): Model<R, Rel & Add>;
  /** The names of the declared relations. */
  readonly relationNames: readonly string[];
  /** A relation-aware query on the live rows (awaiting it gives the rows, by id unless ordered). */
  rows(): RelationQuery<Model<R, Rel>>;
  /** Rows with the relation at `path` loaded (one query per relation): `Task.preload("project.owner")`. */
  preload<P extends RelationPath<Rel>>(
    path: P,
    constraint?: RelationConstraint<PathTarget<Rel, P>>,
  ): RelationQuery<Model<R, Rel>, Preloaded<Rel, P>>;
  /** Rows with `<name>_count`, the number of related rows. */
  withCount<K extends keyof Rel & string>(
    name: K,
    constraint?: RelationConstraint<RelationTarget<Rel, K>>,
  ): RelationQuery<Model<R, Rel>, { [C in `${K}_count`]: number }>;
  /** Rows with at least one related row (that the constraint keeps). */
  whereHas<K extends keyof Rel & string>(
    name: K,
    constraint?: RelationConstraint<RelationTarget<Rel, K>>,
  ): RelationQuery<Model<R, Rel>>;
  /** Rows with no related row (that the constraint keeps). */
  whereDoesntHave<K extends keyof Rel & string>(
    name: K,
    constraint?: RelationConstraint<RelationTarget<Rel, K>>,
  ): RelationQuery<Model<R, Rel>>;
  /**
   * One row's relation as a query: awaiting gives the related row or null (belongsTo, hasOne)
   * or rows; `.where(...)` narrows it; `create`, `attach`, `detach`, `sync` write through it.
   */
  related<K extends keyof Rel & string, T extends R>(row: T, name: K): RelatedQuery<Rel, K, T>;
  /** Loads relations into rows already read (one query per relation) and returns them, typed. */
  load<T extends R, P extends RelationPath<Rel>>(rows: T[], ...paths: P[]): Promise<(T & AllOf<Preloaded<Rel, P>>)[]>;
  load<T extends R, P extends RelationPath<Rel>>(row: T, ...paths: P[]): Promise<T & AllOf<Preloaded<Rel, P>>>;

  /**
   * The same model seeing soft-deleted rows too, relations included: `Post.withTrashed().preload("author")`
   * (the related rows a relation loads are still live rows only).
   */
  withTrashed(): ModelView<R, Rel>;
  /** The same model seeing only soft-deleted rows (relations as in withTrashed). */
  onlyTrashed(): ModelView<R, Rel>;
  /** Gives the model its database (done by bindModels / loadModels / the data plugin). */
  bind(knex: Knex): void;
  /** True once bound. */
  readonly bound: boolean;
}

/** A model seen through withTrashed() / onlyTrashed(): its reads, writes and relation queries. */
// biome-ignore lint/complexity/noBannedTypes: no relations is the empty object type.
export type ModelView<R extends BaseRow, Rel = {}> = Omit<
  Model<R, Rel>,
  "withTrashed" | "onlyTrashed" | "bind" | "bound" | "relations"
>;

/** The row type of a model: `type User = RowOf<typeof User>`. */
export type RowOf<M> = M extends { hydrate(row: Record<string, unknown>): infer R } ? R : never;

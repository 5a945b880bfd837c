/**
 * The typed face of a relation-aware query: `Task.preload("project")` and friends. The row type
 * grows with each `preload` and `withCount`, so `task.project` type-checks only after
 * `preload("project")`, and a relation name that is not declared is a compile error.
 */
import type { Knex } from "knex";
import type { CreateInput } from "../row-types.js";
import type { Page, PaginateOptions } from "../paginate.js";
import type {
  ModelRow,
  PathTarget,
  Preloaded,
  RelationKindOf,
  RelationPath,
  RelationsOf,
  RelationTarget,
  RelatedResult,
} from "./types.js";

/** A constraint on a relation's query: `(q) => q.where("done", false).orderBy("title")`. */
export type RelationConstraint<M> = (query: RelationQuery<M>) => unknown;

/** Comparison operators `where(column, operator, value)` accepts. */
export type WhereOperator = "=" | "<>" | "!=" | "<" | "<=" | ">" | ">=" | "like" | "not like" | "ilike";

/** A column of the model's rows, or any `table.column` (for joined tables). */
export type ColumnName<R> = (keyof R & string) | `${string}.${string}`;

/** One relation loaded twice (`tasks`, then `tasks.assignees`): an array's rows get both. */
type MergeValue<A, B> = A extends readonly (infer EA)[]
  ? B extends readonly (infer EB)[]
    ? (EA & EB)[]
    : A & B
  : A & B;

/**
 * What a row holds after one more preload: the relations loaded before and the new ones, a relation
 * named by both merged, so `preload("tasks", ...).preload("tasks.assignees")` gives tasks whose
 * array methods see the assignees.
 */
export type MergeLoaded<Loaded, Added> = unknown extends Loaded
  ? Added
  : {
      [K in keyof Loaded | keyof Added]: K extends keyof Added
        ? K extends keyof Loaded
          ? MergeValue<Loaded[K], Added[K]>
          : Added[K]
        : K extends keyof Loaded
          ? Loaded[K]
          : never;
    };

/** The rows a query gives: its model's rows and what was loaded into them. */
export type QueryRow<M, Loaded> = ModelRow<M> & Loaded;

/** What awaiting the query gives: the rows, or one row or null for a belongsTo/hasOne relation query. */
export type QueryResult<M, Loaded, One extends boolean> = One extends true
  ? QueryRow<M, Loaded> | null
  : QueryRow<M, Loaded>[];

/**
 * A query on a model's live rows that can load relations (one query per relation, whatever the
 * number of rows). Awaiting it runs it. Column names are qualified with the model's table, so
 * joined queries (many-to-many) stay unambiguous.
 */
export interface RelationQuery<M, Loaded = unknown, One extends boolean = false>
  extends PromiseLike<QueryResult<M, Loaded, One>> {
  /** Rows whose columns equal these values. */
  where(values: Partial<ModelRow<M>>): this;
  /** Rows whose column equals the value. */
  where(column: ColumnName<ModelRow<M>>, value: unknown): this;
  /** Rows whose column compares so to the value. */
  where(column: ColumnName<ModelRow<M>>, operator: WhereOperator, value: unknown): this;
  /** Rows whose columns do not equal these values. */
  whereNot(values: Partial<ModelRow<M>>): this;
  /** Rows whose column is one of the values. */
  whereIn(column: ColumnName<ModelRow<M>>, values: readonly unknown[]): this;
  /** Rows whose column is null. */
  whereNull(column: ColumnName<ModelRow<M>>): this;
  /** Rows whose column is not null. */
  whereNotNull(column: ColumnName<ModelRow<M>>): this;
  /** Orders by a column (by id when no order is given). */
  orderBy(column: ColumnName<ModelRow<M>>, direction?: "asc" | "desc"): this;
  /**
   * At most this many rows. In a preload constraint it counts per owner, like Lucid's
   * `groupLimit` and Eloquent's eager-load `limit`: `Project.preload("tasks", (q) =>
   * q.orderBy("id", "desc").limit(3))` gives each project its 3 latest tasks.
   */
  limit(count: number): this;
  /** Skips this many rows (per owner in a preload constraint, like `limit`). */
  offset(count: number): this;
  /** Changes the underlying knex builder (anything the methods above do not offer). */
  modify(change: (builder: Knex.QueryBuilder) => void): this;
  /**
   * Loads a relation into every row, one query for all rows: a name (`"project"`) or a path
   * (`"project.owner"`), with an optional constraint on the last relation's query.
   */
  preload<P extends RelationPath<RelationsOf<M>>>(
    path: P,
    constraint?: RelationConstraint<PathTarget<RelationsOf<M>, P>>,
  ): RelationQuery<M, MergeLoaded<Loaded, Preloaded<RelationsOf<M>, P>>, One>;
  /** Adds `<name>_count`, the number of related rows (those the constraint keeps). */
  withCount<K extends keyof RelationsOf<M> & string>(
    name: K,
    constraint?: RelationConstraint<RelationTarget<RelationsOf<M>, K>>,
  ): RelationQuery<M, Loaded & { [C in `${K}_count`]: number }, One>;
  /** Only rows with at least one related row (that the constraint keeps). */
  whereHas<K extends keyof RelationsOf<M> & string>(
    name: K,
    constraint?: RelationConstraint<RelationTarget<RelationsOf<M>, K>>,
  ): this;
  /** Only rows without a related row (that the constraint keeps). */
  whereDoesntHave<K extends keyof RelationsOf<M> & string>(
    name: K,
    constraint?: RelationConstraint<RelationTarget<RelationsOf<M>, K>>,
  ): this;
  /** Runs the query: every row. */
  all(): Promise<QueryRow<M, Loaded>[]>;
  /** Runs the query: the first row, or undefined. */
  first(): Promise<QueryRow<M, Loaded> | undefined>;
  /** Runs the query: the first row; E_ROW_NOT_FOUND (404) when there is none. */
  firstOrFail(): Promise<QueryRow<M, Loaded>>;
  /** How many rows the query matches (preloads and counts are not run). */
  count(): Promise<number>;
  /**
   * One page of rows (relations loaded for that page only) and the page links, like `paginate()`:
   * `await Task.preload("project").orderBy("id", "desc").paginate({ ...pageParams(ctx.query), baseUrl: "/tasks" })`.
   */
  paginate(options: Omit<PaginateOptions<unknown, unknown>, "map">): Promise<Page<QueryRow<M, Loaded>>>;
}

/** Many-to-many pivot values: `{ role: "lead" }`. */
export type PivotValues = Readonly<Record<string, unknown>>;

/** Related ids, or related ids with their pivot values (`{ 1: { role: "lead" } }`). */
export type PivotIds = string | number | readonly (string | number)[] | Readonly<Record<string | number, PivotValues>>;

/** What `sync` changed. */
export interface SyncResult {
  readonly attached: readonly (string | number)[];
  readonly detached: readonly (string | number)[];
  readonly updated: readonly (string | number)[];
}

/** A child's attributes when created through its parent: the key columns (`*_id`) may be left out. */
export type ChildInput<R> = Omit<CreateInput<R>, `${string}_id`> & Partial<CreateInput<R>>;

/** The writes of a hasOne relation. */
export interface HasOneWrites<R> {
  /** Creates a related row with its foreign key set to this row's key, and returns it. */
  create(data: ChildInput<R>): Promise<R>;
}

/** The writes of a hasMany relation. */
export interface HasManyWrites<R> extends HasOneWrites<R> {
  /** Creates related rows (in one transaction, joining the open one), each with this row's key. */
  createMany(data: readonly ChildInput<R>[]): Promise<R[]>;
}

/** The writes of a belongsTo relation, on the child's row (each joins the current transaction). */
export interface BelongsToWrites<Child, Parent> {
  /** Sets the child's foreign key to the parent's key (stored with update()) and returns the child. */
  associate(parent: Parent): Promise<Child>;
  /** Sets the child's foreign key to null (stored with update()) and returns the child. */
  dissociate(): Promise<Child>;
}

/** The writes of a manyToMany relation (each joins the current transaction). */
export interface ManyToManyWrites<R> {
  /** Creates a related row and attaches it (in one transaction), and returns it. */
  create(data: CreateInput<R>, pivot?: PivotValues): Promise<R>;
  /** Attaches related rows (ids already attached are left as they are); returns how many were added. */
  attach(ids: PivotIds, pivot?: PivotValues): Promise<number>;
  /** Detaches these related rows, or every one; returns how many were removed. */
  detach(ids?: PivotIds): Promise<number>;
  /** Makes the attached rows exactly these (pivot values updated for kept ones given values). */
  sync(ids: PivotIds): Promise<SyncResult>;
}

/** The writes a relation kind offers (`Child` is the row the relation starts from). */
export type RelationWrites<Rel, K extends keyof Rel, Child = unknown> =
  RelationKindOf<Rel, K> extends "hasMany"
    ? HasManyWrites<ModelRow<RelationTarget<Rel, K>>>
    : RelationKindOf<Rel, K> extends "hasOne"
      ? HasOneWrites<ModelRow<RelationTarget<Rel, K>>>
      : RelationKindOf<Rel, K> extends "manyToMany"
        ? ManyToManyWrites<ModelRow<RelationTarget<Rel, K>>>
        : RelationKindOf<Rel, K> extends "belongsTo"
          ? BelongsToWrites<Child, ModelRow<RelationTarget<Rel, K>>>
          : unknown;

/** The query of one row's relation (`Task.related(task, "project")`): awaiting gives its value. */
export type RelatedQuery<Rel, K extends keyof Rel, Child = unknown> = RelationQuery<
  RelationTarget<Rel, K>,
  RelatedResult<Rel[K]> extends (infer E)[] ? Omit<E, keyof ModelRow<RelationTarget<Rel, K>>> : unknown,
  RelationKindOf<Rel, K> extends "belongsTo" | "hasOne" ? true : false
> &
  RelationWrites<Rel, K, Child>;

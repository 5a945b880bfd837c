/**
 * The runtime of {@link RelationQuery}: it records what the caller asks for and builds the knex
 * query only when run, so it runs on the transaction open at that moment. Preloads are kept as a
 * tree (`project.owner` under `project`) and loaded after the rows, one query per relation.
 */
import type { Knex } from "knex";
import { E_ROW_NOT_FOUND } from "../errors.js";
import { paginate, type PaginateOptions } from "../paginate.js";
import { loadTree, type PreloadNode, type QueryMaker, type QueryShape } from "./eager.js";
import { internals, relationOf, type RuntimeModel } from "./internal.js";
import type { RelationQuery } from "./query-types.js";
import { joinToOwner } from "./subqueries.js";

type Builder = Knex.QueryBuilder;

/** The alias of a row's number within its owner's rows (a preload's per-owner limit). */
const ROW_NUMBER_ALIAS = "relation__row_number";
type Constraint = ((query: RelationQuery<unknown>) => unknown) | undefined;

/** A query on `model`'s live rows that can load relations (see query-types.ts). */
export class RelationQueryImpl {
  readonly #model: RuntimeModel;
  readonly #shape: QueryShape;
  readonly #changes: ((builder: Builder) => void)[] = [];
  readonly #counts: { name: string; constraint: Constraint }[] = [];
  readonly #preloads = new Map<string, PreloadNode>();
  readonly #orders: [string, "asc" | "desc"][] = [];
  #limit: number | undefined;
  #offset: number | undefined;

  constructor(model: RuntimeModel, shape: QueryShape = {}) {
    this.#model = model;
    this.#shape = shape;
  }

  /** `column` qualified with the model's table unless it names a table already. */
  #column(column: string): string {
    return column.includes(".") ? column : `${this.#model.table}.${column}`;
  }

  #qualified(values: object): Record<string, unknown> {
    return Object.fromEntries(
      Object.entries(values)
        .filter(([, value]) => value !== undefined)
        .map(([key, value]) => [this.#column(key), value]),
    );
  }

  where(...args: unknown[]): this {
    if (args.length === 1 && typeof args[0] === "object" && args[0] !== null) {
      const values = this.#qualified(args[0]);
      this.#changes.push((b) => b.where(values));
    } else if (args.length === 2) {
      const [column, value] = args as [string, Knex.Value];
      this.#changes.push((b) => b.where(this.#column(column), value));
    } else {
      const [column, operator, value] = args as [string, string, Knex.Value];
      this.#changes.push((b) => b.where(this.#column(column), operator, value));
    }
    return this;
  }

  whereNot(values: object): this {
    const qualified = this.#qualified(values);
    this.#changes.push((b) => b.whereNot(qualified));
    return this;
  }

  whereIn(column: string, values: readonly unknown[]): this {
    this.#changes.push((b) => b.whereIn(this.#column(column), values as Knex.Value[]));
    return this;
  }

  whereNull(column: string): this {
    this.#changes.push((b) => b.whereNull(this.#column(column)));
    return this;
  }

  whereNotNull(column: string): this {
    this.#changes.push((b) => b.whereNotNull(this.#column(column)));
    return this;
  }

  orderBy(column: string, direction: "asc" | "desc" = "asc"): this {
    this.#orders.push([this.#column(column), direction === "desc" ? "desc" : "asc"]);
    return this;
  }

  limit(count: number): this {
    this.#limit = count;
    return this;
  }

  offset(count: number): this {
    this.#offset = count;
    return this;
  }

  modify(change: (builder: Builder) => void): this {
    this.#changes.push(change);
    return this;
  }

  preload(path: string, constraint?: Constraint): this {
    const names = path.split(".");
    let level = this.#preloads;
    let model: RuntimeModel = this.#model;
    names.forEach((name, index) => {
      const relation = relationOf(model, name);
      let node = level.get(name);
      if (!node) {
        node = { name, children: new Map(), constraint: undefined };
        level.set(name, node);
      }
      if (index === names.length - 1 && constraint) node.constraint = constraint;
      level = node.children;
      model = relation.target as RuntimeModel;
    });
    return this;
  }

  withCount(name: string, constraint?: Constraint): this {
    relationOf(this.#model, name);
    this.#counts.push({ name, constraint });
    return this;
  }

  whereHas(name: string, constraint?: Constraint): this {
    const sub = this.#related(name, constraint);
    this.#changes.push((b) => b.whereExists(sub()));
    return this;
  }

  whereDoesntHave(name: string, constraint?: Constraint): this {
    const sub = this.#related(name, constraint);
    this.#changes.push((b) => b.whereNotExists(sub()));
    return this;
  }

  /** A builder of the related rows of relation `name` that belong to the outer row. */
  #related(name: string, constraint: Constraint): () => Builder {
    const relation = relationOf(this.#model, name);
    return () => {
      const target = relation.target as RuntimeModel;
      const sub = joinToOwner(relation, target.query());
      if (constraint) {
        const inner = new RelationQueryImpl(target);
        constraint(inner as unknown as RelationQuery<unknown>);
        inner.applyConditions(sub);
      }
      return sub;
    };
  }

  /** The relations to preload, as a tree of paths. */
  preloadTree(): ReadonlyMap<string, PreloadNode> {
    return this.#preloads;
  }

  /** Applies this query's conditions (not its order, preloads or counts) to `builder`. */
  applyConditions(builder: Builder): void {
    for (const change of this.#changes) change(builder);
  }

  /** The knex query this runs (on the current connection). */
  build(): Builder {
    const { table } = this.#model;
    const builder = this.#model.query().select(`${table}.*`);
    this.#shape.base?.(builder);
    for (const change of this.#changes) change(builder);
    for (const { name, constraint } of this.#counts) {
      const sub = this.#related(name, constraint)().clearSelect().clearOrder().count("*");
      builder.select(sub.as(`${name}_count`));
    }
    const orders: [string, "asc" | "desc"][] = this.#orders.length > 0 ? this.#orders : [[`${table}.id`, "asc"]];
    const { partition } = this.#shape;
    if (partition && (this.#limit !== undefined || this.#offset !== undefined))
      return this.#perOwner(builder, partition, orders);
    for (const [column, direction] of orders) builder.orderBy(column, direction);
    if (this.#limit !== undefined) builder.limit(this.#limit);
    if (this.#offset !== undefined) builder.offset(this.#offset);
    return builder;
  }

  /**
   * `limit`/`offset` in a preload constraint count per owner ("each project's 3 latest tasks"):
   * the rows are numbered within each owner's key by the query's order (ROW_NUMBER() OVER
   * (PARTITION BY ...), on SQLite 3.25+, PostgreSQL and MariaDB 10.2+) and each owner keeps its
   * numbers offset+1 to offset+limit.
   */
  #perOwner(builder: Builder, partition: string, orders: [string, "asc" | "desc"][]): Builder {
    const db = internals(this.#model).db();
    const over = orders.map(([, direction]) => `?? ${direction}`).join(", ");
    builder.select(
      db.raw(`row_number() over (partition by ?? order by ${over}) as ${ROW_NUMBER_ALIAS}`, [
        partition,
        ...orders.map(([column]) => column),
      ]),
    );
    const from = this.#offset ?? 0;
    const ranked = db.select("*").from(builder.as("relation__ranked")).where(ROW_NUMBER_ALIAS, ">", from);
    if (this.#limit !== undefined) ranked.where(ROW_NUMBER_ALIAS, "<=", from + this.#limit);
    return ranked.orderBy(ROW_NUMBER_ALIAS);
  }

  /** Runs `work` on the built query (column kinds learnt first), driver errors translated. */
  async #fetch<T>(work: (builder: Builder) => Promise<T>): Promise<T> {
    const inner = internals(this.#model);
    try {
      await inner.learn();
      return await work(this.build());
    } catch (error) {
      throw inner.translate(error);
    }
  }

  /** Turns raw rows into the rows returned: counts as numbers, hydrated, pivots, preloads. */
  async #finish(raw: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
    const { partition, prepare } = this.#shape;
    const ranked = partition !== undefined && (this.#limit !== undefined || this.#offset !== undefined);
    const rows = raw.map((fetched) => {
      if (ranked) delete fetched[ROW_NUMBER_ALIAS];
      const row = prepare ? prepare(fetched) : fetched;
      for (const { name } of this.#counts) row[`${name}_count`] = Number(row[`${name}_count`] ?? 0);
      return this.#model.hydrate(row) as unknown as Record<string, unknown>;
    });
    await loadTree(this.#model, rows, this.#preloads, makeQuery);
    return rows;
  }

  async all(): Promise<Record<string, unknown>[]> {
    return this.#finish(await this.#fetch(async (builder) => (await builder) as Record<string, unknown>[]));
  }

  async paginate(options: Omit<PaginateOptions<Record<string, unknown>, Record<string, unknown>>, "map">) {
    const page = await this.#fetch((builder) => paginate<Record<string, unknown>>(builder, options));
    return { ...page, items: await this.#finish(page.items) };
  }

  async first(): Promise<Record<string, unknown> | undefined> {
    const rows = await this.limit(1).all();
    return rows[0];
  }

  async firstOrFail(): Promise<Record<string, unknown>> {
    const row = await this.first();
    if (!row) throw new E_ROW_NOT_FOUND(this.#model.table, "these conditions");
    return row;
  }

  async count(): Promise<number> {
    const inner = internals(this.#model);
    try {
      const builder = this.#model.query();
      this.#shape.base?.(builder);
      for (const change of this.#changes) change(builder);
      const [row] = (await builder.clearSelect().clearOrder().count({ total: "*" })) as { total: number | string }[];
      return Number(row?.total ?? 0);
    } catch (error) {
      throw inner.translate(error);
    }
  }

  // biome-ignore lint/suspicious/noThenProperty: the query is awaited to run it, like a knex builder.
  then<A = unknown, B = never>(
    resolve?: ((value: unknown) => A | PromiseLike<A>) | null,
    reject?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    const result = this.#shape.one ? this.first().then((row) => row ?? null) : this.all();
    return result.then(resolve, reject);
  }
}

/** Makes a relation query; eager loading is given this to fetch each relation's rows. */
export const makeQuery: QueryMaker = (model, shape) => new RelationQueryImpl(model, shape);

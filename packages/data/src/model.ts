/**
 * `defineModel`: a typed table gateway over knex. An app's lib/models.ts declares its models and
 * the data plugin binds them to the connection at start-up; rows are plain objects typed by the
 * row interface, dates come back as Date objects, and every value goes through knex bindings.
 */
import type { Knex } from "knex";
import { FrameworkError } from "routing-kernel";
import { columnKinds, convertColumnKinds, jsonForWrite, knownColumnKinds } from "./column-kinds.js";
import { dialectOfKnex } from "./connection.js";
import { isDateColumnName, toDate } from "./date-columns.js";
import { translateDbError } from "./db-errors.js";
import { E_INVALID_DATA, E_MODEL_UNBOUND, E_ROW_NOT_FOUND } from "./errors.js";
import type {
  BaseRow,
  CreateInput,
  Model,
  ModelMethods,
  ModelOptions,
  ModelScope,
  UpdateInput,
} from "./model-types.js";
import { missingParent } from "./relations/missing-parent.js";
import { addRelationMethods } from "./relations/model-relations.js";
import type { RuntimeModel } from "./relations/internal.js";
import { markRow } from "./relations/serialize.js";
import { activeConnection, transaction } from "./transaction.js";

/** Marks model objects so loadModels can find them among a module's exports. */
export const MODEL_BRAND: unique symbol = Symbol.for("data.model") as never;

interface ModelState {
  readonly table: string;
  readonly softDelete: boolean;
  readonly idType: "integer" | "string";
  readonly dates: readonly string[];
  readonly hidden: readonly string[];
  knex: Knex | undefined;
  /** The declared relation thunks (set by `.relations({...})`). */
  relations: Readonly<Record<string, () => unknown>>;
  /** The model object itself, which rows remember (set once it exists). */
  model: object;
}

/**
 * True when `value` is a model made by {@link defineModel}. (`Model<any>`: narrowing a typed
 * model must keep its row type.)
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isModel(value: unknown): value is Model<any> {
  return typeof value === "object" && value !== null && (value as { [MODEL_BRAND]?: unknown })[MODEL_BRAND] === true;
}

/**
 * Declares the model of `table`. `R` is the row type (extend BaseRow, and SoftDeleteRow with
 * `softDelete: true`); every method is typed by it: `await User.find(1)` is `UserRow | undefined`.
 */
export function defineModel<R extends BaseRow>(table: string, options: ModelOptions<R> = {}): Model<R> {
  const state: ModelState = {
    table,
    softDelete: options.softDelete ?? false,
    idType: options.idType ?? "integer",
    dates: ["created_at", "updated_at", "deleted_at", ...(options.dates ?? [])],
    hidden: [...(options.hidden ?? [])],
    knex: undefined,
    relations: {},
    model: {},
  };
  const active = view<R>(state, "active");
  const base = () => {
    if (!state.knex) throw new E_MODEL_UNBOUND(table);
    return state.knex;
  };
  /** A view with the relation methods: its own rows in that scope, the related rows live ones. */
  const relationView = (scope: ModelScope) => {
    const scoped = view<R>(state, scope);
    addRelationMethods(scoped, state, base);
    return scoped;
  };
  // defineProperties, not Object.assign: `bound` must stay a getter.
  Object.defineProperties(active, {
    withTrashed: { value: () => relationView("all") },
    onlyTrashed: { value: () => relationView("trashed") },
    bind: {
      value: (knex: Knex) => {
        state.knex = knex;
      },
    },
    bound: { get: () => state.knex !== undefined, enumerable: true },
    [MODEL_BRAND]: { value: true },
  });
  state.model = active;
  addRelationMethods(active, state, base);
  return active as unknown as Model<R>;
}

function compact(data: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));
}

/**
 * Conditions for a lookup, or undefined when a value is an object or array: such a value (from
 * a JSON body, say) can never equal a column, and some drivers would expand it into SQL.
 */
function conditions(where: object): Record<string, unknown> | undefined {
  const values = compact(where);
  for (const value of Object.values(values)) {
    if (typeof value === "object" && value !== null && !(value instanceof Date) && !Buffer.isBuffer(value))
      return undefined;
  }
  return values;
}

function view<R extends BaseRow>(state: ModelState, scope: ModelScope): ModelMethods<R> {
  const { table } = state;
  const knex = (): Knex => {
    if (!state.knex) throw new E_MODEL_UNBOUND(table);
    return state.knex;
  };
  const db = (): Knex => activeConnection(knex());
  const scoped = (builder: Knex.QueryBuilder): Knex.QueryBuilder => {
    if (!state.softDelete || scope === "all") return builder;
    return scope === "active" ? builder.whereNull(`${table}.deleted_at`) : builder.whereNotNull(`${table}.deleted_at`);
  };
  /** The table's boolean and JSON columns, learnt on first use (see column-kinds.ts). */
  const learn = () => columnKinds(knex(), db(), table);
  const dateColumns = new Set(state.dates);
  const hydrate = (raw: object): R => {
    // A row of any shape: its columns are converted in place.
    const row = raw as Record<string, unknown>;
    // The model's date columns and every `*_at` column, in one pass over the row's own keys.
    for (const column of Object.keys(row))
      if (dateColumns.has(column) || isDateColumnName(column)) row[column] = toDate(row[column]);
    const kinds = state.knex ? knownColumnKinds(state.knex, table) : undefined;
    if (kinds) convertColumnKinds(row, kinds);
    markRow(row, state.model, state.hidden);
    return raw as R;
  };
  /** Ids that cannot name a row of an integer-keyed table find nothing (and never reach SQL). */
  const usableId = (id: unknown): boolean => {
    if (state.idType === "string") return typeof id === "string" || typeof id === "number";
    if (typeof id === "number") return Number.isSafeInteger(id);
    return typeof id === "string" && /^-?\d{1,15}$/.test(id);
  };
  const run = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      await learn();
      return await work();
    } catch (error) {
      throw translateDbError(error, table);
    }
  };
  /** A write of `data`: a foreign key naming no row becomes a field error (RelatedRowMissing, 422). */
  const written = async <T>(data: Record<string, unknown>, work: () => Promise<T>): Promise<T> => {
    try {
      return await run(work);
    } catch (error) {
      throw (await missingParent(state.model as RuntimeModel, error, data)) ?? error;
    }
  };
  /** Lookups by client-supplied values: a value the column cannot hold simply matches nothing. */
  const lookup = async <T>(work: () => Promise<T>, none: T): Promise<T> => {
    try {
      return await run(work);
    } catch (error) {
      if (error instanceof FrameworkError && error.code === E_INVALID_DATA.code) return none;
      throw error;
    }
  };
  const rowById = async (id: unknown, within: ModelScope): Promise<R | undefined> => {
    if (!usableId(id)) return undefined;
    const found = await lookup(
      () =>
        view<R>(state, within)
          .query()
          .where(`${table}.id`, id as string)
          .first(),
      undefined,
    );
    return found ? hydrate(found) : undefined;
  };
  const methods: ModelMethods<R> = {
    table,
    softDelete: state.softDelete,
    scope,
    get knex() {
      return knex();
    },
    query() {
      return scoped(db()(table)) as Knex.QueryBuilder<R, R[]>;
    },
    find: (id) => rowById(id, scope),
    async findOrFail(id) {
      const row = await rowById(id, scope);
      if (!row) throw new E_ROW_NOT_FOUND(table, `id ${JSON.stringify(String(id))}`);
      return row;
    },
    async findBy(where) {
      const values = conditions(where);
      if (!values) return undefined;
      const row = await lookup(() => methods.query().where(values).orderBy(`${table}.id`).first(), undefined);
      return row ? hydrate(row) : undefined;
    },
    async findByOrFail(where) {
      const row = await methods.findBy(where);
      if (!row) throw new E_ROW_NOT_FOUND(table, describeWhere(where));
      return row;
    },
    async where(where) {
      const values = conditions(where);
      if (!values) return [];
      const rows = await lookup<unknown>(() => methods.query().where(values).orderBy(`${table}.id`), []);
      return (rows as Record<string, unknown>[]).map(hydrate);
    },
    async all() {
      const rows = await run(() => methods.query().orderBy(`${table}.id`));
      return (rows as Record<string, unknown>[]).map(hydrate);
    },
    async count() {
      const [row] = await run(() => methods.query().count<{ total: number | string }[]>({ total: "*" }));
      return Number(row?.total ?? 0);
    },
    async create(data: CreateInput<R>) {
      const now = new Date();
      const given: Record<string, unknown> = { created_at: now, updated_at: now, ...compact(data) };
      const id = await written(given, async () => {
        const values = jsonForWrite(given, await learn());
        if (dialectOfKnex(knex()) === "postgres") {
          const [inserted] = (await db()(table).insert(values).returning("id")) as { id: unknown }[];
          return inserted?.id;
        }
        const [insertId] = (await db()(table).insert(values)) as unknown[];
        return given["id"] ?? insertId;
      });
      const row = await rowById(id, "all");
      if (!row) throw new E_ROW_NOT_FOUND(table, `id ${JSON.stringify(String(id))} right after inserting it`);
      return row;
    },
    async update(id, patch: UpdateInput<R>) {
      const values: Record<string, unknown> = { ...compact(patch), updated_at: new Date() };
      delete values["id"];
      const changed = usableId(id)
        ? await written(values, async () =>
            scoped(db()(table))
              .where(`${table}.id`, id)
              .update(jsonForWrite(values, await learn())),
          )
        : 0;
      if (!changed) throw new E_ROW_NOT_FOUND(table, `id ${JSON.stringify(String(id))}`);
      return (await rowById(id, "all"))!;
    },
    async delete(id) {
      if (!usableId(id)) return false;
      if (!state.softDelete) return methods.forceDelete(id);
      const now = new Date();
      const changed = await run(() =>
        db()(table)
          .where(`${table}.id`, id)
          .whereNull(`${table}.deleted_at`)
          .update({ deleted_at: now, updated_at: now }),
      );
      return changed > 0;
    },
    async forceDelete(id) {
      if (!usableId(id)) return false;
      const removed = await run(() => db()(table).where(`${table}.id`, id).del());
      return removed > 0;
    },
    async restore(id) {
      const changed = usableId(id)
        ? await run(() =>
            db()(table)
              .where(`${table}.id`, id)
              .whereNotNull(`${table}.deleted_at`)
              .update({ deleted_at: null, updated_at: new Date() }),
          )
        : 0;
      if (!changed) throw new E_ROW_NOT_FOUND(table, `deleted id ${JSON.stringify(String(id))}`);
      return (await rowById(id, "all"))!;
    },
    transaction: (fn) => transaction(knex(), fn),
    hydrate,
  };
  return methods;
}

function describeWhere(where: object): string {
  const parts = Object.entries(where).map(([key, value]) => `${key} = ${JSON.stringify(value)}`);
  return parts.length > 0 ? parts.join(" and ") : "these conditions";
}

/**
 * Model factories: `defineFactory(Note, ({ faker }) => ({ title: faker.lorem.sentence() }))` gives
 * `make` (attributes, not saved), `create` (saved through the model) and their `...Many` forms.
 * Any attribute may be a function, run only when no override replaces it: that is how a factory
 * makes a related row (`author_id: async () => (await Users.create()).id`) without creating one
 * that an override makes useless. `afterCreate` callbacks add rows that point back at the new one.
 */
import type { Faker } from "@faker-js/faker";
import { E_FACTORY_COUNT, E_FACTORY_DEFINITION } from "../errors.js";
import { isModel } from "../model.js";
import type { BaseRow, CreateInput, Model } from "../model-types.js";
import type { RelationNamesOfKind } from "../relations/types.js";
import { factoryFaker, onFactoryReset } from "./faker.js";
import { childrenCallback, parentOverrides, registerFactory } from "./relation-states.js";

/** What a factory's definition, lazy attributes and callbacks receive. */
export interface FactoryContext {
  /** The shared, seeded faker (same data on every run; see seedFactories). */
  readonly faker: Faker;
  /** 1 for the first row this factory builds, then 2, 3... (back to 1 after seedFactories). */
  readonly sequence: number;
}

/** A value, or a function giving it (called only when the attribute is not overridden). */
export type Lazy<T> = T | ((context: FactoryContext) => T | Promise<T>);

/** What a definition returns: every column `create` requires, each value possibly lazy. */
export type FactoryAttributes<R> = { [K in keyof CreateInput<R>]: Lazy<CreateInput<R>[K]> };

/** Values that replace the definition's: an object (values possibly lazy) or a function of the context. */
export type FactoryOverrides<R> =
  | { [K in keyof CreateInput<R>]?: Lazy<CreateInput<R>[K]> }
  | ((context: FactoryContext) => { [K in keyof CreateInput<R>]?: Lazy<CreateInput<R>[K]> });

/** Runs after a row was created: make related rows that refer to it. */
export type AfterCreate<R> = (row: R, context: FactoryContext) => void | Promise<void>;

/** A factory of any model (`has()` finds the relation by the factory's model). */
// biome-ignore lint/suspicious/noExplicitAny: any row type, any relations.
export type AnyFactory = Factory<any, any>;

/** A model factory (see {@link defineFactory}); `Rel` are the model's relations. */
// biome-ignore lint/complexity/noBannedTypes: no relations is the empty object type.
export interface Factory<R extends BaseRow, Rel = {}> {
  /** The model rows are created through. */
  readonly model: Model<R, Rel>;
  /** The attributes of one row, not saved (lazy values resolved). */
  make(overrides?: FactoryOverrides<R>): Promise<CreateInput<R>>;
  /** `count` rows' attributes, not saved. */
  makeMany(count: number, overrides?: FactoryOverrides<R>): Promise<CreateInput<R>[]>;
  /** Saves one row through the model and returns it as stored; then runs the afterCreate callbacks. */
  create(overrides?: FactoryOverrides<R>): Promise<R>;
  /** Saves `count` rows one after the other (sequence order) and returns them. */
  createMany(count: number, overrides?: FactoryOverrides<R>): Promise<R[]>;
  /** A factory whose rows take these values by default (a "state": `Notes.with({ done: true })`). */
  with(overrides: FactoryOverrides<R>): Factory<R, Rel>;
  /**
   * A factory that gives each row `count` related rows of a hasMany/hasOne/manyToMany relation,
   * made by the related model's factory: `Projects.with("tasks", 3)`.
   */
  with(
    relation: RelationNamesOfKind<Rel, "hasMany" | "hasOne" | "manyToMany">,
    count?: number,
    overrides?: Readonly<Record<string, unknown>>,
  ): Factory<R, Rel>;
  /** Like `with("relation", count)` with the children's factory given: `Projects.has(Tasks.with({ done: true }), 2)`. */
  has(
    factory: AnyFactory,
    count?: number,
    relation?: RelationNamesOfKind<Rel, "hasMany" | "hasOne" | "manyToMany">,
  ): Factory<R, Rel>;
  /** A factory whose rows belong to `parent` (a row read or created through its model): `Tasks.for(project)`. */
  for(parent: BaseRow, relation?: RelationNamesOfKind<Rel, "belongsTo">): Factory<R, Rel>;
  /** A factory that runs `callback` after each row it creates (relations pointing back to the row). */
  afterCreate(callback: AfterCreate<R>): Factory<R, Rel>;
}

interface FactoryState<R extends BaseRow, Rel> {
  readonly model: Model<R, Rel>;
  readonly definition: (context: FactoryContext) => FactoryAttributes<R>;
  readonly defaults: readonly FactoryOverrides<R>[];
  readonly callbacks: readonly AfterCreate<R>[];
  readonly counter: { next: number };
}

function checkCount(count: number, table: string): void {
  if (!Number.isSafeInteger(count) || count < 0) throw new E_FACTORY_COUNT(table, String(count));
}

async function resolveAttributes<R extends BaseRow, Rel>(
  state: FactoryState<R, Rel>,
  overrides: FactoryOverrides<R> | undefined,
): Promise<{ attributes: CreateInput<R>; context: FactoryContext }> {
  const context: FactoryContext = { faker: await factoryFaker(), sequence: state.counter.next++ };
  const layers = [...state.defaults, ...(overrides === undefined ? [] : [overrides])];
  let merged: Record<string, unknown> = { ...state.definition(context) };
  for (const layer of layers) merged = { ...merged, ...(typeof layer === "function" ? layer(context) : layer) };
  // Lazy values run in key order, after merging, so an overridden relation never creates its row.
  const attributes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(merged)) {
    attributes[key] = typeof value === "function" ? await (value as (c: FactoryContext) => unknown)(context) : value;
  }
  return { attributes: attributes as CreateInput<R>, context };
}

function factoryOf<R extends BaseRow, Rel>(state: FactoryState<R, Rel>): Factory<R, Rel> {
  const withDefaults = (overrides: FactoryOverrides<R>) =>
    factoryOf({ ...state, defaults: [...state.defaults, overrides] });
  const withCallback = (callback: AfterCreate<R>) => factoryOf({ ...state, callbacks: [...state.callbacks, callback] });
  const children = (count: number, options: Parameters<typeof childrenCallback>[2]) => {
    checkCount(count, state.model.table);
    const create = childrenCallback(state.model, count, options);
    return withCallback((row) => create(row));
  };
  const factory: Factory<R, Rel> = {
    model: state.model,
    make: async (overrides) => (await resolveAttributes(state, overrides)).attributes,
    async makeMany(count, overrides) {
      checkCount(count, state.model.table);
      const rows: CreateInput<R>[] = [];
      for (let index = 0; index < count; index++) rows.push(await factory.make(overrides));
      return rows;
    },
    async create(overrides) {
      const { attributes, context } = await resolveAttributes(state, overrides);
      const row = await state.model.create(attributes);
      for (const callback of state.callbacks) await callback(row, context);
      return row;
    },
    async createMany(count, overrides) {
      checkCount(count, state.model.table);
      const rows: R[] = [];
      for (let index = 0; index < count; index++) rows.push(await factory.create(overrides));
      return rows;
    },
    with: ((first: FactoryOverrides<R> | string, count: number = 1, overrides?: Record<string, unknown>) =>
      typeof first === "string" ? children(count, { name: first, overrides }) : withDefaults(first)) as Factory<
      R,
      Rel
    >["with"],
    has: (child, count = 1, relation) => children(count, { name: relation, factory: child }),
    for: (parent, relation) => withDefaults(parentOverrides(state.model, parent, relation) as FactoryOverrides<R>),
    afterCreate: withCallback,
  };
  return factory;
}

/**
 * Declares the factory of a model. `definition` gets the seeded faker and the row's sequence
 * number and returns the row's attributes (each may be a function, run when not overridden):
 *
 * `export const Notes = defineFactory(Note, ({ faker }) => ({ title: faker.lorem.words(3), done: false }))`
 */
export function defineFactory<R extends BaseRow, Rel>(
  model: Model<R, Rel>,
  definition: (context: FactoryContext) => FactoryAttributes<R>,
): Factory<R, Rel> {
  if (!isModel(model) || typeof definition !== "function")
    throw new E_FACTORY_DEFINITION(typeof model?.table === "string" ? model.table : "(not a model)");
  const counter = { next: 1 };
  onFactoryReset(() => {
    counter.next = 1;
  });
  const factory = factoryOf<R, Rel>({ model, definition, defaults: [], callbacks: [], counter });
  registerFactory(factory);
  return factory;
}

/**
 * Gives a model its relation methods: `.relations({...})` to declare them, `rows`, `preload`,
 * `withCount`, `whereHas`, `whereDoesntHave` to start a relation-aware query, `related` for one
 * row's relation, and `load` to load relations into rows already read.
 */
import type { Knex } from "knex";
import { columnKinds } from "../column-kinds.js";
import { translateDbError } from "../db-errors.js";
import { E_RELATION_DEFINITION } from "../errors.js";
import { activeConnection } from "../transaction.js";
import { resolveRelation, type ResolvedRelation } from "./definitions.js";
import { loadTree, type PreloadNode } from "./eager.js";
import { INTERNALS, type ModelInternals, type RuntimeModel, unknownRelation } from "./internal.js";
import { makeQuery, RelationQueryImpl } from "./query.js";
import { relatedQuery } from "./related.js";

/** What the model keeps that relations read. */
export interface RelationState {
  readonly table: string;
  readonly hidden: readonly string[];
  knex: Knex | undefined;
  /** The declared relation thunks, by name. */
  relations: Readonly<Record<string, () => unknown>>;
}

/** Defines the relation methods and internals on `model` (the object defineModel returns). */
export function addRelationMethods(model: object, state: RelationState, base: () => Knex): void {
  const resolved = new Map<string, ResolvedRelation>();
  const runtime = model as RuntimeModel;
  const internalApi: ModelInternals = {
    learn: () => columnKinds(base(), activeConnection(base()), state.table),
    relation(name) {
      let relation = resolved.get(name);
      if (relation) return relation;
      const thunk = Object.hasOwn(state.relations, name) ? state.relations[name] : undefined;
      if (!thunk) unknownRelation(runtime, name);
      relation = resolveRelation(runtime, name, thunk());
      resolved.set(name, relation);
      return relation;
    },
    relationNames: () => Object.keys(state.relations),
    translate: (error) => translateDbError(error, state.table),
    db: () => activeConnection(base()),
    base,
    hidden: state.hidden,
  };
  const query = () => new RelationQueryImpl(runtime);
  Object.defineProperties(model, {
    [INTERNALS]: { value: internalApi },
    relationNames: { get: () => Object.keys(state.relations), enumerable: true },
    relations: {
      value: (map: Record<string, () => unknown>) => {
        if (typeof map !== "object" || map === null)
          throw new E_RELATION_DEFINITION(state.table, "relations() takes an object of relation functions");
        for (const [name, thunk] of Object.entries(map)) {
          if (typeof thunk !== "function")
            throw new E_RELATION_DEFINITION(
              `${state.table}.${name}`,
              "write it as a function, name: () => belongsTo(Model), so models can refer to each other",
            );
        }
        state.relations = { ...state.relations, ...map };
        resolved.clear();
        return model;
      },
    },
    rows: { value: query },
    preload: { value: (path: string, constraint?: never) => query().preload(path, constraint) },
    withCount: { value: (name: string, constraint?: never) => query().withCount(name, constraint) },
    whereHas: { value: (name: string, constraint?: never) => query().whereHas(name, constraint) },
    whereDoesntHave: { value: (name: string, constraint?: never) => query().whereDoesntHave(name, constraint) },
    related: {
      value: (row: Record<string, unknown>, name: string) => relatedQuery(runtime, row, name),
    },
    load: {
      value: async (rows: Record<string, unknown> | Record<string, unknown>[], ...paths: string[]) => {
        const list = Array.isArray(rows) ? rows : [rows];
        const tree = new Map<string, PreloadNode>();
        // The query object builds the tree (and checks the names) the way preload does.
        const planner = query();
        for (const path of paths) planner.preload(path);
        for (const [name, node] of planner.preloadTree()) tree.set(name, node);
        await loadTree(runtime, list, tree, makeQuery);
        return rows;
      },
    },
  });
}

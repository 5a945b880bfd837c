/**
 * What relation code needs from a model beyond its public methods: learning the table's column
 * kinds before hydrating, its resolved relations, and the error translation its own queries use.
 * Kept on a symbol so it never shows in the model's public type.
 */
import type { Knex } from "knex";
import { E_UNKNOWN_RELATION } from "../errors.js";
import type { ResolvedRelation } from "./definitions.js";
import type { RowSource } from "./types.js";

/** The key of a model's internals. */
export const INTERNALS: unique symbol = Symbol.for("data.model.internals") as never;

/** A model's internals (see the file comment). */
export interface ModelInternals {
  /** Learns the table's boolean and JSON columns (once per database), so hydrate converts them. */
  learn(): Promise<unknown>;
  /** The resolved relation `name`; E_UNKNOWN_RELATION naming the declared ones otherwise. */
  relation(name: string): ResolvedRelation;
  /** The declared relation names. */
  relationNames(): readonly string[];
  /** The coded error for a driver error on this model's table. */
  translate(error: unknown): unknown;
  /** The connection queries run on now: the open transaction on the model's database, or the database. */
  db(): Knex;
  /** The model's database itself (what transactions are opened on). */
  base(): Knex;
  /** The model's columns left out of JSON. */
  readonly hidden: readonly string[];
}

/** A model as relation code sees it at runtime. */
export interface RuntimeModel extends RowSource {
  readonly softDelete: boolean;
  /** A query on the model's live rows (soft-deleted ones left out), on the current connection. */
  query(): Knex.QueryBuilder;
  create(data: Record<string, unknown>): Promise<Record<string, unknown>>;
  update(id: unknown, patch: Record<string, unknown>): Promise<Record<string, unknown>>;
  readonly [INTERNALS]: ModelInternals;
}

/** The internals of `model`. */
export function internals(model: RowSource): ModelInternals {
  const found = (model as Partial<RuntimeModel>)[INTERNALS];
  if (!found) throw new E_UNKNOWN_RELATION(model.table, "(any)", "");
  return found;
}

/** The resolved relation `name` of `model`. */
export function relationOf(model: RowSource, name: string): ResolvedRelation {
  return internals(model).relation(name);
}

/** Throws E_UNKNOWN_RELATION for `name` on `model`. */
export function unknownRelation(model: RowSource, name: string): never {
  throw new E_UNKNOWN_RELATION(model.table, name, internals(model).relationNames().join(", "));
}

/**
 * Many-to-many writes: attach, detach, sync and create-and-attach on the pivot table. Each runs on
 * the transaction open on the model's database (so it commits or rolls back with the caller's
 * work); sync and create open their own (a savepoint inside the caller's) so they never half-apply.
 */
import { translateDbError } from "../db-errors.js";
import { E_RELATION_WRITE } from "../errors.js";
import { transaction } from "../transaction.js";
import type { ResolvedRelation } from "./definitions.js";
import { internals, type RuntimeModel } from "./internal.js";
import type { PivotIds, PivotValues, SyncResult } from "./query-types.js";

type Id = string | number;

/** The ids and pivot values a write was given, in order, without duplicates. */
function entries(ids: PivotIds | undefined, shared: PivotValues = {}): Map<string, { id: Id; values: PivotValues }> {
  const result = new Map<string, { id: Id; values: PivotValues }>();
  if (ids === undefined) return result;
  if (typeof ids === "string" || typeof ids === "number") result.set(String(ids), { id: ids, values: shared });
  else if (Array.isArray(ids)) for (const id of ids as Id[]) result.set(String(id), { id, values: shared });
  else
    for (const [id, values] of Object.entries(ids as Record<string, PivotValues>))
      result.set(id, { id: /^\d+$/.test(id) ? Number(id) : id, values: { ...shared, ...values } });
  return result;
}

/** The writes of `relation` for the owner row whose key is `key`. */
export function pivotWrites(relation: ResolvedRelation, key: unknown) {
  const owner = internals(relation.owner);
  const target = relation.target as RuntimeModel;
  const { pivot, foreignPivotKey: ownerColumn, relatedPivotKey: relatedColumn } = relation;
  const where = `${relation.owner.table}.${relation.name}`;
  const pivotTable = () => owner.db()(pivot);
  const run = async <T>(work: () => Promise<T>): Promise<T> => {
    if (key === null || key === undefined)
      throw new E_RELATION_WRITE(where, "manyToMany", "attach/detach/sync", "the row has no key yet; save it first");
    try {
      return await work();
    } catch (error) {
      throw translateDbError(error, pivot);
    }
  };
  const checkValues = (values: PivotValues): void => {
    for (const column of Object.keys(values))
      if (!relation.pivotColumns.includes(column))
        throw new E_RELATION_WRITE(
          where,
          "manyToMany",
          `The pivot column "${column}"`,
          `declare it in pivotColumns (declared: ${relation.pivotColumns.join(", ") || "none"})`,
        );
  };
  const attached = async (): Promise<Set<string>> => {
    const rows = (await pivotTable()
      .where(ownerColumn, key as never)
      .select(relatedColumn)) as Record<string, unknown>[];
    return new Set(rows.map((row) => String(row[relatedColumn])));
  };
  const insert = async (items: { id: Id; values: PivotValues }[]): Promise<void> => {
    if (items.length === 0) return;
    const now = new Date();
    const stamps = relation.pivotTimestamps ? { created_at: now, updated_at: now } : {};
    await pivotTable().insert(
      items.map(({ id, values }) => ({ ...values, ...stamps, [ownerColumn]: key, [relatedColumn]: id })),
    );
  };
  const writes = {
    async attach(ids: PivotIds, values: PivotValues = {}): Promise<number> {
      const wanted = entries(ids, values);
      for (const item of wanted.values()) checkValues(item.values);
      return run(async () => {
        const present = await attached();
        const fresh = [...wanted.values()].filter(({ id }) => !present.has(String(id)));
        await insert(fresh);
        return fresh.length;
      });
    },
    async detach(ids?: PivotIds): Promise<number> {
      return run(async () => {
        const query = pivotTable().where(ownerColumn, key as never);
        if (ids !== undefined)
          query.whereIn(
            relatedColumn,
            [...entries(ids).values()].map(({ id }) => id),
          );
        return Number(await query.del());
      });
    },
    async sync(ids: PivotIds): Promise<SyncResult> {
      const wanted = entries(ids);
      for (const item of wanted.values()) checkValues(item.values);
      return run(() =>
        transaction(owner.base(), async () => {
          const present = await attached();
          const detached = [...present].filter((id) => !wanted.has(id));
          if (detached.length > 0)
            await pivotTable()
              .where(ownerColumn, key as never)
              .whereIn(relatedColumn, detached)
              .del();
          const fresh = [...wanted.values()].filter(({ id }) => !present.has(String(id)));
          await insert(fresh);
          const updated: Id[] = [];
          for (const { id, values } of wanted.values()) {
            if (!present.has(String(id)) || Object.keys(values).length === 0) continue;
            const stamps = relation.pivotTimestamps ? { updated_at: new Date() } : {};
            await pivotTable()
              .where(ownerColumn, key as never)
              .where(relatedColumn, id)
              .update({ ...values, ...stamps });
            updated.push(id);
          }
          const asId = (id: string): Id => (/^\d+$/.test(id) ? Number(id) : id);
          return { attached: fresh.map(({ id }) => id), detached: detached.map(asId), updated };
        }),
      );
    },
    async create(data: Record<string, unknown>, values: PivotValues = {}): Promise<Record<string, unknown>> {
      checkValues(values);
      return transaction(owner.base(), async () => {
        const row = await target.create(data);
        await writes.attach(row[relation.targetColumn] as Id, values);
        return row;
      });
    },
  };
  return writes;
}

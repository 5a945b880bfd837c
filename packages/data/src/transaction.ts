/**
 * Transactions that models join without being handed the transaction object: inside
 * `transaction(knex, fn)` every model bound to that knex runs its queries on the transaction
 * (tracked with AsyncLocalStorage). That also keeps SQLite, whose pool has one connection, from
 * waiting on itself when a model is called inside a transaction.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Knex } from "knex";

const current = new AsyncLocalStorage<ReadonlyMap<Knex, Knex.Transaction>>();

/** The transaction open on `db` in this async context, or `db` itself. */
export function activeConnection(db: Knex): Knex {
  return current.getStore()?.get(db) ?? db;
}

/**
 * Runs `fn` in a transaction on `db`: committed when it resolves, rolled back (and the error
 * rethrown) when it throws. Nested calls become savepoints.
 */
export async function transaction<T>(db: Knex, fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  const outer = activeConnection(db);
  return outer.transaction(async (trx) => {
    const store = new Map(current.getStore() ?? []);
    store.set(db, trx);
    return current.run(store, () => fn(trx));
  });
}

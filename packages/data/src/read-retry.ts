/**
 * A read that failed because its pooled connection was dropped (the database restarted, a proxy
 * closed it) is run again on a fresh connection, three times at most: the failure says nothing
 * about the query, and a read may run twice without harm. Writes are never retried (the server may have applied one
 * before the connection went), nor is anything inside a transaction (its connection is gone with
 * the transaction's work) or on a connection the caller chose.
 */
import type { Knex } from "knex";
import { isConnectionLost } from "./db-errors.js";

interface RunnableBuilder {
  readonly _method?: string;
  readonly _connection?: unknown;
  readonly sql?: string;
}

interface Runner {
  run(): Promise<unknown>;
}

interface RunnerClient {
  readonly transacting?: boolean;
  runner(builder: RunnableBuilder): Runner;
}

const READ_METHODS = new Set(["select", "first", "pluck"]);
const READ_SQL = /^\s*(select|show|explain)\b/i;
const LOCKING = /\bfor\s+(update|share|no\s+key\s+update|key\s+share)\b|\block\s+in\s+share\s+mode\b/i;

/** True for a query builder or raw query that only reads (and locks nothing). */
export function isReadQuery(builder: RunnableBuilder): boolean {
  if (builder._connection !== undefined) return false;
  if (typeof builder.sql === "string") return READ_SQL.test(builder.sql) && !LOCKING.test(builder.sql);
  // A select that locks rows (forUpdate, forShare) belongs to a write.
  const lock = (builder as { _single?: { lock?: unknown } })._single?.lock;
  return builder._method !== undefined && READ_METHODS.has(builder._method) && !lock;
}

/** Pauses before each new attempt, so the pool hears of its other dropped connections first. */
const PAUSES_MS = [20, 100, 250];

/**
 * Runs the read again after a short pause. When the server dropped every pooled connection at once,
 * the next one taken from the pool may be one whose end this process has not read yet: such a
 * failure is no answer from a fresh connection, so it is tried again, a few times at most.
 */
async function runAgain(run: () => Promise<unknown>): Promise<unknown> {
  let last: unknown;
  for (const pause of PAUSES_MS) {
    await new Promise((resolve) => setTimeout(resolve, pause));
    try {
      return await run();
    } catch (error) {
      if (!isConnectionLost(error)) throw error;
      last = error;
    }
  }
  throw last;
}

/**
 * Makes `knex` run a read once more when its connection was lost; `onRetry` hears each such
 * retry (the data battery logs it at warn). Returns `knex`.
 */
export function retryLostReads(knex: Knex, onRetry: (error: unknown) => void = () => {}): Knex {
  const client = knex.client as RunnerClient;
  const makeRunner = client.runner.bind(client);
  client.runner = (builder) => {
    const runner = makeRunner(builder);
    if (client.transacting || !isReadQuery(builder)) return runner;
    const run = runner.run.bind(runner);
    runner.run = async () => {
      try {
        return await run();
      } catch (error) {
        if (!isConnectionLost(error)) throw error;
        onRetry(error);
        return runAgain(() => makeRunner(builder).run());
      }
    };
    return runner;
  };
  return knex;
}

/**
 * Database metrics from knex itself: the pool's connections in use, idle and waited for (read at
 * each scrape), and query durations from knex's `query` and `query-response`/`query-error` events.
 */
import type { Registry } from "prom-client";
import { promClient } from "./prom.js";
import type { ConnectionMessage } from "@fwkit/battery-kit";

/** What this file reads of a knex instance (events, and tarn's pool). */
export interface KnexLike {
  on(event: string, listener: (...args: never[]) => void): unknown;
  off?(event: string, listener: (...args: never[]) => void): unknown;
  readonly client?: { readonly pool?: TarnPool };
}

interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/** A query as knex's events describe it. */
export interface KnexQuery {
  readonly __knexQueryUid?: string;
  readonly method?: string;
  readonly sql?: string;
}

const OPERATIONS = new Set([
  "select",
  "first",
  "pluck",
  "insert",
  "update",
  "del",
  "delete",
  "truncate",
  "upsert",
  "raw",
  "columnInfo",
  "counter",
]);

/** A query's operation label: knex's method when it is one of its own, else `other`. */
export function operationOf(query: KnexQuery): string {
  const method = query.method ?? "raw";
  return OPERATIONS.has(method) ? method : "other";
}

/** Watches knex instances; `close()` stops listening to them. */
export interface KnexMetrics {
  watch(message: ConnectionMessage): void;
  close(): void;
}

/** Registers the database metrics on `registry`. */
export function knexMetrics(registry: Registry, prefix: string): KnexMetrics {
  const watched = new Map<KnexLike, { dialect: string; listeners: Array<[string, (...args: never[]) => void]> }>();
  const pools = (): Array<[string, TarnPool]> =>
    [...watched].flatMap(([knex, { dialect }]) =>
      knex.client?.pool ? [[dialect, knex.client.pool] as [string, TarnPool]] : [],
    );
  new (promClient().Gauge)({
    name: `${prefix}db_pool_connections`,
    help: "Database connections of the pool: in_use by a query, idle, or waiting (requests waiting for a connection).",
    labelNames: ["dialect", "state"],
    registers: [registry],
    collect() {
      this.reset();
      for (const [dialect, pool] of pools()) {
        this.inc({ dialect, state: "in_use" }, pool.numUsed());
        this.inc({ dialect, state: "idle" }, pool.numFree());
        this.inc({ dialect, state: "waiting" }, pool.numPendingAcquires());
      }
    },
  });
  const duration = new (promClient().Histogram)({
    name: `${prefix}db_query_duration_seconds`,
    help: "Database query durations by knex operation and outcome (ok or error).",
    labelNames: ["dialect", "operation", "outcome"],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return {
    watch({ knex, dialect }) {
      const instance = knex as KnexLike;
      if (watched.has(instance)) return;
      const started = new Map<string, number>();
      const done = (outcome: string) => (_result: unknown, query: KnexQuery) => {
        const uid = query?.__knexQueryUid;
        const start = uid === undefined ? undefined : started.get(uid);
        if (start === undefined) return;
        started.delete(uid!);
        duration.observe({ dialect, operation: operationOf(query), outcome }, (performance.now() - start) / 1000);
      };
      const listeners: Array<[string, (...args: never[]) => void]> = [
        [
          "query",
          ((query: KnexQuery) => {
            if (query?.__knexQueryUid) started.set(query.__knexQueryUid, performance.now());
          }) as (...args: never[]) => void,
        ],
        ["query-response", done("ok") as (...args: never[]) => void],
        ["query-error", done("error") as (...args: never[]) => void],
      ];
      for (const [event, listener] of listeners) instance.on(event, listener);
      watched.set(instance, { dialect, listeners });
    },
    close() {
      for (const [knex, { listeners }] of watched)
        for (const [event, listener] of listeners) knex.off?.(event, listener);
      watched.clear();
    },
  };
}

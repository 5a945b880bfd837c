/**
 * Idempotency keys: an unsafe request that carries an `Idempotency-Key` (header or the
 * `_idempotency_key` form field) runs once; a retry of it gets the first answer replayed. Per
 * route with `@idempotent`, or for every view route's unsafe requests with the config's
 * `idempotency: { unsafeMethods: true }`.
 */
import { randomUUID } from "node:crypto";
import type { Middleware } from "koa";
import { outageLog, type OutageLog } from "@fwkit/battery-kit";
import type { PluginContext } from "@fwkit/koa-host/plugin";
import type { Route } from "routing-kernel";
import type { SecurityConfig } from "../config.js";
import type { SessionUrl } from "../session-url.js";
import { resolveIdempotency, type IdempotencySettings } from "./config.js";
import { IDEMPOTENT_TAG } from "./decorator.js";
import { idempotencyMiddleware } from "./middleware.js";
import { RedisIdempotencyStore } from "./redis-store.js";
import { MemoryIdempotencyStore, type IdempotencyStore } from "./store.js";

export type { IdempotencyConfigInput, IdempotencySettings } from "./config.js";
export { IDEMPOTENT_TAG, idempotent } from "./decorator.js";
export { IDEMPOTENCY_FIELD, IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_MAX } from "./key.js";
export { REPLAYED_HEADER } from "./middleware.js";
export { MemoryIdempotencyStore, type IdempotencyRecord, type IdempotencyStore, type StoredResponse } from "./store.js";

/** A fresh key for one rendering of a form (the template local `idempotency_key()`). */
export function newIdempotencyKey(): string {
  return randomUUID();
}

/** The security battery's idempotency keys for one app, made at start-up. */
export interface Idempotency {
  readonly settings: IdempotencySettings;
  /** The route's middleware when it honours keys (`@idempotent`, or `unsafeMethods`), else undefined. */
  routeMiddleware(route: Route): Middleware | undefined;
  close(): Promise<void>;
}

/**
 * Sets idempotency keys up from the resolved `idempotency` block (start-up). The store is opened with the first route that honours
 * keys, so an app without such a route opens no connection for them.
 */
export function setUpIdempotency(
  context: PluginContext,
  block: SecurityConfig["idempotency"],
  sessionUrl: SessionUrl,
  scopeCookies: readonly string[],
): Idempotency {
  const settings = resolveIdempotency(block, sessionUrl);
  const log = context.logger;
  let store: IdempotencyStore | undefined;
  let middleware: Middleware | undefined;
  const production = (context.config as { env?: unknown }).env === "production";
  const open = (): Middleware => {
    const outage: OutageLog = outageLog({ logger: log, name: `security: the ${settings.store.kind} idempotency keys` });
    if (settings.store.kind === "redis") {
      store = new RedisIdempotencyStore(settings.store.url, { prefix: settings.store.prefix, outage });
    } else {
      store = new MemoryIdempotencyStore();
      if (production) {
        log.warn(
          "security: idempotency keys are kept in this process's memory: a retry that reaches another worker or node runs again. Set idempotency.url (or a Redis sessionUrl) to share them.",
        );
      }
    }
    return idempotencyMiddleware({
      store,
      ttlMs: settings.ttlMs,
      scopeCookies,
      outage,
      log: {
        info: (details, message) => log.info(details, message),
        warn: (details, message) => log.warn(details, message),
      },
    });
  };
  return {
    settings,
    routeMiddleware(route) {
      if (route.tags[IDEMPOTENT_TAG] !== true && !settings.unsafeMethods) return undefined;
      middleware ??= open();
      return middleware;
    },
    close: async () => {
      await store?.close();
    },
  };
}

/**
 * The `idempotency` block, as declared in config-schema.ts (its type, defaults, key check and
 * docs rows come from there) and resolved with the rest of the security config: here only where
 * the keys are kept follows from it and the session store (Redis, or this process's memory).
 */
import type { SecurityConfig } from "../config.js";
import type { SessionUrl } from "../session-url.js";

export type { IdempotencyConfigInput } from "../config-schema.js";

/** The resolved block. */
export interface IdempotencySettings {
  readonly unsafeMethods: boolean;
  readonly ttlMs: number;
  /** A Redis URL with its key prefix, or memory. */
  readonly store:
    | { readonly kind: "memory" }
    | { readonly kind: "redis"; readonly url: string; readonly prefix: string };
}

/** The settings of the resolved block, with the session store in view (start-up). */
export function resolveIdempotency(block: SecurityConfig["idempotency"], sessionUrl: SessionUrl): IdempotencySettings {
  return Object.freeze({
    unsafeMethods: block.unsafeMethods,
    ttlMs: block.ttl * 1000,
    store: storeOf(block.url, sessionUrl),
  });
}

/** The schema let through only a Redis URL or `memory:`; unset, the session store's Redis when it is one. */
function storeOf(url: string | undefined, sessionUrl: SessionUrl): IdempotencySettings["store"] {
  if (url === undefined) {
    if (sessionUrl.kind === "redis")
      return { kind: "redis", url: sessionUrl.url, prefix: `${sessionUrl.prefix}idempotency:` };
    return { kind: "memory" };
  }
  if (url === "memory" || url === "memory:") return { kind: "memory" };
  const parsed = new URL(url);
  const prefix = parsed.searchParams.get("prefix") ?? "idempotency:";
  parsed.searchParams.delete("prefix");
  return { kind: "redis", url: parsed.toString(), prefix };
}

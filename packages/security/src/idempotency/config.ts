/**
 * The `idempotency` config block: whether every unsafe request of every view route honours an
 * `Idempotency-Key` (else only routes marked `@idempotent`), how long a key and its answer are
 * kept, and where (Redis, or this process's memory).
 */
import { checkOptionKeys } from "routing-kernel";
import { E_SECURITY_CONFIG_INVALID } from "../errors.js";
import type { SessionUrl } from "../session-url.js";

/** The keys of the `idempotency` block. */
export const IDEMPOTENCY_KEYS = Object.freeze({ unsafeMethods: true, ttl: true, url: true } as const);

/** The `idempotency` block as an app writes it. */
export interface IdempotencyConfigInput {
  /** Every POST, PUT, PATCH and DELETE to a view route honours a key (default false: only `@idempotent` routes). */
  readonly unsafeMethods?: boolean;
  /** Seconds a key and its answer are kept (default 86400, one day). */
  readonly ttl?: number;
  /** `redis://host:port/db?prefix=...` or `memory:`; default: the session store's Redis when sessions are in Redis, else memory. */
  readonly url?: string;
}

/** The resolved block. */
export interface IdempotencySettings {
  readonly unsafeMethods: boolean;
  readonly ttlMs: number;
  /** A Redis URL with its key prefix, or memory. */
  readonly store:
    | { readonly kind: "memory" }
    | { readonly kind: "redis"; readonly url: string; readonly prefix: string };
}

const DAY = 86_400;

/** Checks the block (start-up): unknown keys, types and ranges are errors naming the key. */
export function resolveIdempotency(value: unknown, sessionUrl: SessionUrl): IdempotencySettings {
  const block = (value ?? {}) as Record<string, unknown>;
  if (typeof block !== "object" || Array.isArray(block))
    throw new E_SECURITY_CONFIG_INVALID("idempotency", "expected an object such as { unsafeMethods: true }");
  checkOptionKeys("idempotency", block, Object.keys(IDEMPOTENCY_KEYS));
  const { unsafeMethods = false, ttl = DAY, url } = block;
  if (typeof unsafeMethods !== "boolean")
    throw new E_SECURITY_CONFIG_INVALID("idempotency.unsafeMethods", "expected true or false");
  if (typeof ttl !== "number" || !Number.isInteger(ttl) || ttl < 1 || ttl > 30 * DAY)
    throw new E_SECURITY_CONFIG_INVALID("idempotency.ttl", `expected whole seconds from 1 to ${30 * DAY}`);
  return Object.freeze({ unsafeMethods, ttlMs: ttl * 1000, store: storeOf(url, sessionUrl) });
}

function storeOf(url: unknown, sessionUrl: SessionUrl): IdempotencySettings["store"] {
  if (url === undefined || url === null || url === "") {
    if (sessionUrl.kind === "redis")
      return { kind: "redis", url: sessionUrl.url, prefix: `${sessionUrl.prefix}idempotency:` };
    return { kind: "memory" };
  }
  if (url === "memory" || url === "memory:") return { kind: "memory" };
  if (typeof url === "string" && /^rediss?:\/\//.test(url)) {
    const parsed = new URL(url);
    const prefix = parsed.searchParams.get("prefix") ?? "idempotency:";
    parsed.searchParams.delete("prefix");
    return { kind: "redis", url: parsed.toString(), prefix };
  }
  throw new E_SECURITY_CONFIG_INVALID("idempotency.url", 'expected "redis://host:port/db" or "memory:"');
}

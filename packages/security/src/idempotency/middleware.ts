/**
 * The per-route middleware of idempotency keys. A request with a key claims it (atomically, in the
 * store) before the view runs; the answer is stored under the key once the response is finished
 * (so cookies and headers set by outer middleware are kept too). A repeat finds the key: the same
 * request gets the stored answer, another request 422, and while the first has not answered, 409.
 * A request that fails (an error, a 5xx) frees its key, so that a retry runs it again.
 */
import { createHash } from "node:crypto";
import type { Context, Middleware } from "koa";
import { requestIdSlot } from "@fwkit/koa-host/plugin";
import type { OutageLog } from "@fwkit/battery-kit";
import {
  E_IDEMPOTENCY_KEY_IN_USE,
  E_IDEMPOTENCY_KEY_REUSED,
  E_IDEMPOTENCY_STORE_UNAVAILABLE,
  withHeaders,
} from "../errors.js";
import { clientScope, requestFingerprint, requestKey } from "./key.js";
import type { IdempotencyRecord, IdempotencyStore, StoredResponse } from "./store.js";

/** The response header a replayed answer carries. */
export const REPLAYED_HEADER = "Idempotent-Replayed";

/** Options of {@link idempotencyMiddleware}. */
export interface IdempotencyMiddlewareOptions {
  readonly store: IdempotencyStore;
  /** How long a key and its answer are kept. */
  readonly ttlMs: number;
  /** The cookies whose values scope a key to its client (session, CSRF, remember-me). */
  readonly scopeCookies: readonly string[];
  /** Hears of the store's failures. */
  readonly outage?: OutageLog;
  /**
   * Where a request the key caught is reported (a replay, one refused while the first runs) and an
   * answer that could not be stored: the app's log, so a client's retry is visible with its
   * request id even where the balancer logged no line for the first attempt.
   */
  readonly log?: {
    info(details: object, message: string): void;
    warn(details: object, message: string): void;
  };
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

// Headers of one transfer, or ones the host sets afresh for each request.
const NOT_KEPT = new Set([
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
  "x-request-id",
  "traceparent",
  "server-timing",
  "x-response-time",
]);

/** The body as bytes when it can be replayed (text, bytes, JSON); null for a stream. */
function bodyBytes(body: unknown): Buffer | null {
  if (body === undefined || body === null) return Buffer.alloc(0);
  if (typeof body === "string") return Buffer.from(body);
  if (Buffer.isBuffer(body)) return body;
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (typeof body !== "object") return null;
  const prototype = Object.getPrototypeOf(body) as unknown;
  if (Array.isArray(body) || prototype === Object.prototype || prototype === null)
    return Buffer.from(JSON.stringify(body));
  return null;
}

function replay(ctx: Context, response: StoredResponse): void {
  ctx.status = response.status;
  for (const [name, value] of Object.entries(response.headers)) ctx.set(name, value);
  ctx.set(REPLAYED_HEADER, "true");
  ctx.body = response.body === null ? null : Buffer.from(response.body, "base64");
  if (response.body === null) ctx.status = response.status; // Koa makes a null body 204
}

/** The middleware (see the module comment); requests with a safe verb or no key pass through untouched. */
export function idempotencyMiddleware(options: IdempotencyMiddlewareOptions): Middleware {
  const { store, ttlMs, outage } = options;
  const unavailable = (error: unknown) => {
    outage?.failed(error);
    return new E_IDEMPOTENCY_STORE_UNAVAILABLE(store.kind);
  };
  return async (ctx, next) => {
    if (!UNSAFE.has(ctx.method)) return next();
    const key = requestKey(ctx);
    if (key === undefined) return next();
    const fingerprint = requestFingerprint(ctx);
    // Hashed: the store holds neither the client's cookies nor its raw key.
    const id = createHash("sha256")
      .update(`${clientScope(ctx, options.scopeCookies)}\n${key}`)
      .digest("base64url");
    let found: IdempotencyRecord | undefined;
    try {
      found = await store.claim(id, { state: "running", fingerprint }, ttlMs);
    } catch (error) {
      // Fail closed: without the store a retry could not be recognised.
      throw unavailable(error);
    }
    if (found) {
      const details = { idempotencyKey: key, method: ctx.method, path: ctx.path, reqId: requestIdSlot.get(ctx) };
      if (found.fingerprint !== fingerprint) throw new E_IDEMPOTENCY_KEY_REUSED();
      if (found.state !== "done" || !found.response) {
        options.log?.warn(
          details,
          "idempotency: a request came again while its first attempt had not answered (a client's retry, perhaps after its process died); refused with 409",
        );
        throw withHeaders(new E_IDEMPOTENCY_KEY_IN_USE(), { "Retry-After": "1" });
      }
      options.log?.info(details, "idempotency: a request came again; its first answer was replayed");
      replay(ctx, found.response);
      return;
    }
    const free = () =>
      store.release(id).catch((error: unknown) => {
        outage?.failed(error);
      });
    try {
      await next();
    } catch (error) {
      await free();
      throw error;
    }
    if (ctx.status >= 500) {
      await free();
      return;
    }
    const body = bodyBytes(ctx.body);
    const res = ctx.res;
    // Finish, or close without finish: an answer the client did not wait for is still the answer.
    let kept = false;
    const keep = () => {
      if (kept) return;
      kept = true;
      const status = res.statusCode;
      if (status >= 500) {
        void free();
        return;
      }
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(res.getHeaders())) {
        if (value === undefined || NOT_KEPT.has(name)) continue;
        headers[name] = Array.isArray(value) ? value : String(value);
      }
      const response: StoredResponse = { status, headers, body: body === null ? null : body.toString("base64") };
      store.complete(id, { state: "done", fingerprint, response }, ttlMs).catch((error: unknown) => {
        outage?.failed(error);
        options.log?.warn(
          { err: error },
          "idempotency: the answer of a request could not be stored; a retry will get 409",
        );
      });
    };
    res.once("finish", keep);
    res.once("close", keep);
  };
}

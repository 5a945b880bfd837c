import type { Context, Middleware } from "koa";
import { consoleLogger, type ServiceLogger } from "../logger.js";
import type { Cache } from "./cache.js";

/** Options of {@link responseCache}. */
export interface ResponseCacheOptions {
  /** How long a response is kept. */
  readonly seconds: number;
  /** The session cookie's name: requests that carry it are never cached (default `session`, the security package's cookie). */
  readonly sessionCookie?: string;
  /** Reports cache reads and writes that failed (the request is served uncached). */
  readonly logger?: ServiceLogger;
}

/** A response as kept in the cache. */
interface CachedResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[]>;
  /** Base64 of the body bytes. */
  readonly body: string;
}

// Headers that describe one transfer rather than the response, or that Koa recomputes.
const NOT_STORED = new Set([
  "set-cookie",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
  "x-cache",
]);

/** The cache key of a request: method, path and query (parameters sorted). HEAD shares GET's. */
export function responseCacheKey(ctx: Pick<Context, "path" | "querystring">): string {
  const query = new URLSearchParams(ctx.querystring);
  query.sort();
  const search = query.toString();
  return `response:GET:${ctx.path}${search ? `?${search}` : ""}`;
}

/** The body as bytes when it can be replayed (text, bytes, JSON); streams are not cached. */
function bodyBytes(body: unknown): Buffer | undefined {
  if (typeof body === "string") return Buffer.from(body);
  if (Buffer.isBuffer(body)) return body;
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body === null || typeof body !== "object") return undefined;
  // Only what Koa would write as JSON; streams, Blobs and Responses are not replayable here.
  const prototype = Object.getPrototypeOf(body) as unknown;
  if (Array.isArray(body) || prototype === Object.prototype || prototype === null)
    return Buffer.from(JSON.stringify(body));
  return undefined;
}

function hasCookie(ctx: Context, name: string): boolean {
  const header = ctx.get("Cookie");
  if (!header) return false;
  return header.split(";").some((part) => part.trim().startsWith(`${name}=`));
}

/**
 * Koa middleware for one route that serves GET (and HEAD) from the cache and fills it. A response
 * is stored only when it is 2xx, sets no cookie, is not marked `private`/`no-store`, has a
 * replayable body, and the request carried neither the session cookie nor an `Authorization`
 * header: nothing that depends on who asks is ever shared. The decision to store is taken when
 * the response is finished, so cookies set by outer middleware (a session commit) are seen too.
 */
export function responseCache(cache: Cache, options: ResponseCacheOptions): Middleware {
  const sessionCookie = options.sessionCookie ?? "session";
  const logger = options.logger ?? consoleLogger;
  return async (ctx, next) => {
    if (ctx.method !== "GET" && ctx.method !== "HEAD") return next();
    if (hasCookie(ctx, sessionCookie) || ctx.get("Authorization")) return next();
    const key = responseCacheKey(ctx);

    let hit: CachedResponse | undefined;
    try {
      hit = await cache.get<CachedResponse>(key);
    } catch (error) {
      if (cache.outage) cache.outage.failed(error);
      else logger.error({ err: error, key }, "response cache: read failed, serving uncached");
    }
    if (hit) {
      ctx.status = hit.status;
      for (const [name, value] of Object.entries(hit.headers)) ctx.set(name, value);
      ctx.body = Buffer.from(hit.body, "base64");
      ctx.set("X-Cache", "HIT");
      return;
    }

    await next();
    if (ctx.method !== "GET") return;
    const body = bodyBytes(ctx.body);
    if (!body) return;
    ctx.set("X-Cache", "MISS");
    const res = ctx.res;
    res.once("finish", () => {
      const status = res.statusCode;
      const headers = res.getHeaders();
      const cacheControl = String(headers["cache-control"] ?? "");
      if (status < 200 || status > 299 || status === 206) return;
      if (headers["set-cookie"] !== undefined) return;
      if (/\b(private|no-store|no-cache)\b/i.test(cacheControl)) return;
      const stored: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(headers)) {
        if (value === undefined || NOT_STORED.has(name)) continue;
        stored[name] = Array.isArray(value) ? value : String(value);
      }
      const entry: CachedResponse = { status, headers: stored, body: body.toString("base64") };
      cache.set(key, entry, options.seconds).catch((error: unknown) => {
        if (cache.outage) cache.outage.failed(error);
        else logger.error({ err: error, key }, "response cache: write failed");
      });
    });
  };
}

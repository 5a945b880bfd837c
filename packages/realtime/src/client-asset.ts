/**
 * Serves the browser client (`assets/realtime-client.js`, an ES module) at `<realtime.path>/client.js`,
 * so a page imports it from the app itself: no bundler, no copy to keep up to date. Read once, when
 * the battery starts.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Middleware } from "koa";

/** The client's source (from `src/` or `dist/`, the assets are beside both). */
export function readClientSource(): string {
  return readFileSync(new URL("../assets/realtime-client.js", import.meta.url), "utf8");
}

/** The middleware answering `GET <path>` with the client, revalidated by its ETag. */
export function clientAsset(path: string, source: string): Middleware {
  const etag = `"${createHash("sha256").update(source).digest("base64url").slice(0, 22)}"`;
  return async (ctx, next) => {
    if (ctx.path !== path || (ctx.method !== "GET" && ctx.method !== "HEAD")) return next();
    ctx.set("ETag", etag);
    ctx.set("Cache-Control", "no-cache");
    if (ctx.get("If-None-Match") === etag) {
      ctx.status = 304;
      return;
    }
    ctx.type = "text/javascript; charset=utf-8";
    ctx.body = source;
  };
}

import { createReadStream } from "node:fs";
import { extname } from "node:path";
import type { Middleware } from "koa";
import { safeStaticPath } from "@fwkit/koa-host/plugin";
import { E_STATIC_NOT_FOUND } from "../errors.js";
import type { AssetManifest } from "./manifest.js";

/** Options of {@link serveAssets}. */
export interface ServeAssetsOptions {
  /** `max-age` in seconds for plain (unhashed) URLs (default 60). */
  readonly maxAge?: number;
}

/** Decodes and checks a path under the prefix; throws 400 for anything unsafe (koa-host's one static-path rule). */
export const safeAssetPath: (raw: string) => string = safeStaticPath;

/**
 * Serves the manifest's files under its prefix: hashed URLs with `Cache-Control: public,
 * max-age=31536000, immutable`, plain URLs with a short `max-age`, both with an ETag (304 when it
 * matches). Only files in the manifest are ever read, so no request path reaches the file system;
 * unsafe paths get 400, unknown files 404.
 */
export function serveAssets(manifest: AssetManifest, options: ServeAssetsOptions = {}): Middleware {
  const base = `${manifest.prefix}/`;
  const shortCache = `public, max-age=${options.maxAge ?? 60}`;
  return async (ctx, next) => {
    if ((ctx.method !== "GET" && ctx.method !== "HEAD") || !ctx.path.startsWith(base)) return next();
    const path = safeAssetPath(ctx.path.slice(base.length));
    const match = manifest.lookup(path);
    if (!match) throw new E_STATIC_NOT_FOUND(ctx.path);
    const { entry, hashed } = match;
    ctx.status = 200;
    ctx.type = extname(entry.path) || "application/octet-stream";
    ctx.set("Cache-Control", hashed ? "public, max-age=31536000, immutable" : shortCache);
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.etag = entry.hash;
    ctx.lastModified = new Date(entry.mtimeMs);
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    // For HEAD Koa sends no body and destroys the stream when the response finishes.
    ctx.body = createReadStream(entry.file);
    ctx.length = entry.size;
  };
}

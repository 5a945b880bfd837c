import { join } from "node:path";
import type { Middleware } from "koa";
import send from "koa-send";
import { E_STATIC_PATH_INVALID } from "./errors.js";
import { safeStaticPath } from "./static-path.js";

/** Options of {@link staticFiles}. */
export interface StaticOptions {
  /** Absolute folder served. */
  readonly dir: string;
  /** URL prefix, e.g. `/static`. */
  readonly prefix: string;
  /** `Cache-Control: max-age` in seconds. */
  readonly maxAge: number;
}

/**
 * Serves files under `prefix` from `dir` with caching headers (and ETag-free Last-Modified from
 * koa-send). An unsafe path (traversal, NUL, backslash, bad escapes) answers 400 before the file
 * system is asked ({@link safeStaticPath}); a missing file falls through.
 */
export function staticFiles(options: StaticOptions): Middleware {
  const prefix = options.prefix.replace(/\/+$/, "");
  return async (ctx, next) => {
    if ((ctx.method !== "GET" && ctx.method !== "HEAD") || !ctx.path.startsWith(`${prefix}/`)) return next();
    const relative = ctx.path.slice(prefix.length);
    // Checked here, before koa-send, so every unsafe path gets the same 400 (koa-send's own checks
    // answer 400, 403 or 404 depending on the trick used).
    safeStaticPath(relative);
    try {
      const served = await send(ctx, relative, {
        root: options.dir,
        maxage: options.maxAge * 1000,
        index: false,
        hidden: false,
      });
      if (served) return;
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === 404 || (error as { code?: string }).code === "ENOENT") return next();
      if (status && status >= 400 && status < 500) throw new E_STATIC_PATH_INVALID("it is not allowed");
      throw error;
    }
    return next();
  };
}

/** The folder of an app's static files. */
export function staticDir(root: string, dir: string): string {
  return join(root, dir);
}

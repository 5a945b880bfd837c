import { join } from "node:path";
import type { Middleware } from "koa";
import send from "koa-send";

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
 * koa-send). Traversal attempts answer 400/403/404, never 500; anything else falls through.
 */
export function staticFiles(options: StaticOptions): Middleware {
  const prefix = options.prefix.replace(/\/+$/, "");
  return async (ctx, next) => {
    if ((ctx.method !== "GET" && ctx.method !== "HEAD") || !ctx.path.startsWith(`${prefix}/`)) return next();
    const relative = ctx.path.slice(prefix.length);
    try {
      const served = await send(ctx, relative, { root: options.dir, maxage: options.maxAge * 1000, index: false, hidden: false });
      if (served) return;
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === 404 || (error as { code?: string }).code === "ENOENT") return next();
      if (status && status >= 400 && status < 500) throw Object.assign(new Error("This static file path is not allowed."), { status, expose: true });
      throw error;
    }
    return next();
  };
}

/** The folder of an app's static files. */
export function staticDir(root: string, dir: string): string {
  return join(root, dir);
}

import { createReadStream, type Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { extname, join, sep } from "node:path";
import type { Context, Middleware } from "koa";
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

/** Errors of a file lookup that mean "no such file here": the request falls through. */
const NOT_FOUND = new Set(["ENOENT", "ENAMETOOLONG", "ENOTDIR"]);

/** The file's stats when it is a regular file, else undefined (missing, a folder, a bad name). */
async function fileAt(path: string): Promise<Stats | undefined> {
  try {
    const stats = await stat(path);
    return stats.isFile() ? stats : undefined;
  } catch (error) {
    if (NOT_FOUND.has((error as NodeJS.ErrnoException).code ?? "")) return undefined;
    throw error;
  }
}

/**
 * The file to send for `path` under `dir`: a precompressed `.br` or `.gz` copy beside it when the
 * client accepts that encoding (as koa-send did, which this replaces: its dependencies pinned old
 * copies of http-errors into every app), else the file itself.
 */
async function pick(
  ctx: Context,
  file: string,
): Promise<{ file: string; stats: Stats; encoding?: string } | undefined> {
  for (const [encoding, suffix] of [
    ["br", ".br"],
    ["gzip", ".gz"],
  ] as const) {
    if (ctx.acceptsEncodings(encoding, "identity") !== encoding) continue;
    const stats = await fileAt(`${file}${suffix}`);
    if (stats) return { file: `${file}${suffix}`, stats, encoding };
  }
  const stats = await fileAt(file);
  return stats ? { file, stats } : undefined;
}

/**
 * Serves files under `prefix` from `dir` with caching headers (Cache-Control max-age and
 * Last-Modified, no ETag). An unsafe path (traversal, NUL, backslash, bad escapes) answers 400
 * before the file system is asked ({@link safeStaticPath}); a missing file, a folder and a hidden
 * file (a segment starting with `.`) fall through.
 */
export function staticFiles(options: StaticOptions): Middleware {
  const prefix = options.prefix.replace(/\/+$/, "");
  const root = options.dir.replace(/[\\/]+$/, "");
  return async (ctx, next) => {
    if ((ctx.method !== "GET" && ctx.method !== "HEAD") || !ctx.path.startsWith(`${prefix}/`)) return next();
    // Every unsafe path gets the same 400 here, before the file system is asked.
    const relative = safeStaticPath(ctx.path.slice(prefix.length));
    const segments = relative.split("/").filter(Boolean);
    if (segments.length === 0 || segments.some((segment) => segment.startsWith("."))) return next();
    const file = join(root, ...segments);
    if (!file.startsWith(`${root}${sep}`)) return next();
    const found = await pick(ctx, file);
    if (!found) return next();
    ctx.set("Content-Length", String(found.stats.size));
    if (!ctx.response.get("Last-Modified")) ctx.set("Last-Modified", found.stats.mtime.toUTCString());
    if (!ctx.response.get("Cache-Control")) ctx.set("Cache-Control", `max-age=${Math.floor(options.maxAge)}`);
    if (found.encoding) {
      ctx.set("Content-Encoding", found.encoding);
      ctx.vary("Accept-Encoding");
    }
    ctx.type = extname(file);
    ctx.body = createReadStream(found.file);
  };
}

/** The folder of an app's static files. */
export function staticDir(root: string, dir: string): string {
  return join(root, dir);
}

import type { ConformanceHandler } from "./adapter.js";

/** A handler (see {@link ConformanceHandler}) answering `method` and `path` with `text`. */
export function textHandler(
  by: ConformanceHandler["by"],
  method: string,
  path: string,
  text: string,
): ConformanceHandler {
  return {
    by,
    method,
    path,
    middleware: (ctx, next) => {
      if (ctx.method !== method || ctx.path !== path) return next();
      ctx.body = text;
      return undefined;
    },
  };
}

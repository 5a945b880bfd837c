import type { Context } from "koa";
import { safeHeaders } from "./header-values.js";
import { Reply } from "./reply.js";

/**
 * Applies a {@link Reply}'s status and headers and returns the body to answer with; any other
 * result is returned as it is. Frameworks call it first in their responders. A redirect target is
 * percent-encoded where it holds CR, LF or other unsafe characters (see `encodeLocation`).
 */
export function unwrapReply(ctx: Context, result: unknown): unknown {
  if (!(result instanceof Reply)) return result;
  if (result.init.status !== undefined) ctx.status = result.init.status;
  if (result.init.headers) ctx.set(safeHeaders(result.init.headers));
  return result.body;
}

/** Answers a string: `text/html` when it starts with `<` (after white space), else `text/plain`. */
export function sendText(ctx: Context, text: string): void {
  ctx.type = /^\s*</.test(text) ? "text/html; charset=utf-8" : "text/plain; charset=utf-8";
  ctx.body = text;
}

/** Answers JSON (`application/json; charset=utf-8`). */
export function sendJson(ctx: Context, value: unknown): void {
  ctx.type = "application/json; charset=utf-8";
  ctx.body = JSON.stringify(value === undefined ? null : value);
}

/** True for `{}`-style objects (not arrays, dates, buffers, streams or class instances). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** True when the response already has a body or is a redirect / no-content status set by the view. */
export function hasNoBodyStatus(ctx: Context): boolean {
  return (
    ctx.status === 204 ||
    ctx.status === 304 ||
    (ctx.status >= 300 && ctx.status < 400 && Boolean(ctx.response.get("Location")))
  );
}

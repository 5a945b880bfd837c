import type { Context } from "koa";

/**
 * The response's size in bytes, as Koa's `ctx.response.length` gives it: its `Content-Length`,
 * else what the body tells (a string's or a buffer's size), else undefined (a stream). The header
 * is read once by its lower-case name, where Koa's getter asks `hasHeader` and then `getHeader`,
 * each lower-casing the name and looking it up again: the request log line and the metrics read
 * it for every request.
 */
export function responseBytes(ctx: Context): number | undefined {
  const declared = ctx.res.getHeader("content-length");
  return declared === undefined ? ctx.response.length : Number.parseInt(String(declared), 10) || 0;
}

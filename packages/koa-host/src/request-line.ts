/**
 * The request log line. A logger the host made itself (`createLogger`, JSON lines) gets its line
 * written straight to its destination in the shape pino writes it: the fields are known and their
 * keys quoted here once, where pino's general merge, per-key serializer lookup and escaping cost
 * about 2 us a line. Any other logger (one an app or a test passes in, the development printer),
 * or a line pino would treat differently (an object among the fields, a field named like another,
 * a `pino_asJson` tracing subscriber, a destination that wants metadata), goes through
 * `logger.info`.
 */
import { tracingChannel } from "node:diagnostics_channel";
import type { Context } from "koa";
import { pino, type Logger } from "pino";
import { loggedPath } from "./log-path.js";
import { ownLoggerMixin, routeNameOf } from "./logger.js";
import type { RequestLogFields } from "./plugin.js";
import { requestIdSlot } from "./request-state.js";
import { responseBytes } from "./response-bytes.js";

/** Writes one request's log line; `start` is the `performance.now()` reading of its start. */
export type RequestLine = (ctx: Context, start: number) => void;

type Fields = Readonly<Record<string, unknown>>;

const { streamSym, timeSym, chindingsSym, needsMetadataGsym } = pino.symbols;
// pino publishes each line it formats on this channel; a subscriber (an APM agent) sees ours too.
const asJsonChannel = tracingChannel("pino_asJson");
const INFO = 30;
const LINE_KEYS = new Set(["reqId", "route", "method", "path", "status", "ms", "ip", "userAgent", "bytes"]);

// What JSON.stringify escapes in a string: quotes, backslashes, control characters, lone surrogates.
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `text` escaped for a JSON string, without the quotes (most texts need nothing). */
function escaped(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text).slice(1, -1) : text;
}

// Methods, route names and field names repeat from request to request: each is escaped once (a
// bounded cache, as a method set by a middleware could be anything).
const escapedOnce = new Map<string, string>();
function repeated(text: string): string {
  let json = escapedOnce.get(text);
  if (json === undefined) {
    json = escaped(text);
    if (escapedOnce.size < 1024) escapedOnce.set(text, json);
  }
  return json;
}

/**
 * `value` as pino writes a field's value, or `undefined` when the field is left out (undefined, a
 * function) or when only pino's own serializer may write it (an object, a bigint): then the line
 * goes through pino.
 */
function jsonValue(value: unknown): string | undefined | null {
  switch (typeof value) {
    case "string":
      return `"${escaped(value)}"`;
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "undefined":
    case "function":
      return undefined;
    default:
      return null;
  }
}

/**
 * `,"key":value` for each field of `fields`; `null` when one needs pino's serializer, or is named
 * like one of the line's own fields or of `others` (pino's merge then decides where it goes).
 */
function fieldsJson(fields: Fields | undefined, others?: Fields): string | null {
  let out = "";
  if (fields)
    for (const key in fields) {
      if (!Object.hasOwn(fields, key)) continue;
      if (LINE_KEYS.has(key) || (others !== undefined && Object.hasOwn(others, key))) return null;
      const value = jsonValue(fields[key]);
      if (value === null) return null;
      if (value !== undefined) out += `,"${repeated(key)}":${value}`;
    }
  return out;
}

/**
 * Writes a request's log line through `logger.info`: its id, route, method, path, status, the
 * milliseconds since `start`, the client's address (as `trustProxy` believes it), its user agent,
 * the response's size in bytes when known, and what the plugins add (`fields`: the user's id when
 * one is logged in).
 */
export function logRequest(logger: Logger, ctx: Context, start: number, fields?: RequestLogFields): void {
  const path = loggedPath(ctx);
  logger.info(
    {
      reqId: requestIdSlot.get(ctx),
      route: routeNameOf(ctx),
      method: ctx.method,
      path,
      status: ctx.status,
      ms: Math.round((performance.now() - start) * 10) / 10,
      ip: ctx.ip,
      userAgent: ctx.get("user-agent") || undefined,
      bytes: responseBytes(ctx),
      ...fields?.(ctx),
    },
    `${ctx.method} ${path} ${ctx.status}`,
  );
}

/**
 * The request line of `logger`, decided at start-up: the direct writer for a logger `createLogger`
 * made with JSON lines, {@link logRequest} for any other. Both write the same fields; the direct one
 * writes a plugin's field or the trace's field only when it is a string, number or boolean, and
 * hands the line to pino otherwise.
 */
export function requestLine(logger: Logger, fields?: RequestLogFields): RequestLine {
  const slow: RequestLine = (ctx, start) => logRequest(logger, ctx, start, fields);
  const mixin = ownLoggerMixin(logger);
  const stream = (logger as unknown as Record<symbol, { write(line: string): unknown }>)[streamSym];
  if (mixin === false || !stream || (stream as Record<symbol, unknown>)[needsMetadataGsym] === true) return slow;
  const own = logger as unknown as Readonly<Record<symbol, unknown>>;
  // pino's clock of this logger (ISO or epoch), a method of the logger; `chindings` is read per line
  // as `setBindings` may change it.
  const time = own[timeSym] as (this: Logger) => string;
  return (ctx, start) => {
    // The level can be lowered at run time, and an APM agent may subscribe after start-up.
    if (logger.levelVal > INFO) return;
    if (asJsonChannel.hasSubscribers) return slow(ctx, start);
    const added = fields?.(ctx);
    // A plugin's field named like one of the line's own replaces it, and the trace's fields come
    // first: a field named like another goes through pino, whose merge decides.
    const plugins = fieldsJson(added);
    const reqId = requestIdSlot.get(ctx);
    // pino hands a mixin the line's fields: the trace's reads only whether the line has its reqId.
    const traced = mixin ? fieldsJson(mixin({ reqId }, INFO, logger), added) : "";
    if (plugins === null || traced === null) return slow(ctx, start);
    const ip = ctx.ip;
    const path = escaped(loggedPath(ctx));
    const method = repeated(ctx.method);
    const status = ctx.status;
    const agent = ctx.req.headers["user-agent"];
    const bytes = responseBytes(ctx);
    const route = routeNameOf(ctx);
    stream.write(
      `{"level":30${time.call(logger)}${own[chindingsSym] as string}${traced}` +
        `${reqId === undefined ? "" : `,"reqId":"${escaped(reqId)}"`}` +
        `${route === undefined ? "" : `,"route":"${repeated(route)}"`}` +
        `,"method":"${method}","path":"${path}","status":${status}` +
        `,"ms":${Math.round((performance.now() - start) * 10) / 10}` +
        `${typeof ip === "string" ? `,"ip":"${escaped(ip)}"` : ""}${agent ? `,"userAgent":"${escaped(agent)}"` : ""}` +
        `${bytes === undefined ? "" : `,"bytes":${bytes}`}${plugins},"msg":"${method} ${path} ${status}"}\n`,
    );
  };
}

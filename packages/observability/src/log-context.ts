/**
 * Request context for log lines: while a request runs, every line of the app's logger (not only
 * `ctx.log`) carries its `reqId` and, with tracing, the `trace_id`, `span_id` and `trace_flags` of
 * the active span (the field names OpenTelemetry's log data model uses). It needs an
 * AsyncLocalStorage scope per request, which costs every promise of the process something, so it
 * exists only when tracing or `logContext` is on.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Middleware } from "koa";
import { pino } from "pino";
import { requestIdSlot } from "@fwkit/koa-host/plugin";
import { otelApi, REQUEST_KEY, type RequestHolder } from "./tracing/api.js";

const requests = new AsyncLocalStorage<RequestHolder>();

/**
 * With tracing on, the request rides in OpenTelemetry's context (the server span's, set by
 * `serverSpan`), so a request needs one AsyncLocalStorage scope, not two.
 */
export { REQUEST_KEY };
const CHINDINGS = pino.symbols.chindingsSym;

/**
 * Opens the request's scope (its `reqId` is read when a line is written, once the host set it). The
 * scope holds the request in a holder emptied when the request ends, as the server span's does.
 */
export const logScope: Middleware = (ctx, next) => {
  const holder: RequestHolder = { ctx };
  return requests.run(holder, next).then(
    () => {
      holder.ctx = undefined;
    },
    (error: unknown) => {
      holder.ctx = undefined;
      throw error;
    },
  );
};

/** `trace_flags` as the log data model writes them (two hex digits), for the flags a span can carry. */
const FLAGS = Array.from({ length: 256 }, (_, flags) => flags.toString(16).padStart(2, "0"));

/**
 * The fields of a line written now; `withTrace` adds the active span's ids. A line reads the active
 * context once: the request's holder and the span are two reads of the object the server span put
 * there, the ids are the span's own, and a line outside any request, or whose request has no span
 * (tracing drops every request), gets no trace fields.
 */
export function logFields(
  withTrace: boolean,
): (this: unknown, merge?: object, level?: number, logger?: unknown) => Record<string, unknown> {
  // OpenTelemetry's API is loaded only with tracing on (it is an optional peer).
  const api = withTrace ? otelApi() : undefined;
  return function fields(merge, _level, logger) {
    const out: Record<string, unknown> = {};
    const active = api?.context.active();
    const holder = (active ? active.getValue(REQUEST_KEY) : requests.getStore()) as RequestHolder | undefined;
    const ctx = holder?.ctx;
    const reqId = ctx ? requestIdSlot.get(ctx) : undefined;
    // The request line gives reqId itself and ctx.log carries it in its bindings: once per line is enough.
    if (
      reqId !== undefined &&
      (merge as { reqId?: unknown } | undefined)?.reqId === undefined &&
      !String((logger as Record<symbol, unknown> | undefined)?.[CHINDINGS] ?? "").includes('"reqId"')
    )
      out["reqId"] = reqId;
    const span = active && api!.trace.getSpan(active);
    if (span) {
      const { traceId, spanId, traceFlags } = span.spanContext();
      out["trace_id"] = traceId;
      out["span_id"] = spanId;
      out["trace_flags"] = FLAGS[traceFlags & 0xff];
    }
    return out;
  };
}

/**
 * OpenTelemetry's API package, loaded from the app's folder when tracing or the log context is on
 * (an optional peer, like the SDK packages): an app with both off, the default, installs none of it.
 */
import type * as OtelApi from "@opentelemetry/api";
import type { Context } from "koa";
import { requireDriver } from "../drivers.js";

let loaded: typeof OtelApi | undefined;

/** The app's `@opentelemetry/api`, or `E_OBSERVABILITY_DRIVER_MISSING` naming its install command. */
export function otelApi(): typeof OtelApi {
  loaded ??= requireDriver<typeof OtelApi>("@opentelemetry/api", "tracing (tracing.enabled or OTEL_* variables)");
  return loaded;
}

/** This package's tracer from the provider registered now (middleware and listeners keep theirs). */
export const currentTracer = (): OtelApi.Tracer => otelApi().trace.getTracer("@fwkit/observability");

/**
 * The key under which the request rides in OpenTelemetry's context: what the API's
 * `createContextKey` returns (`Symbol.for(description)`), made without loading the API.
 */
export const REQUEST_KEY: symbol = Symbol.for("fwkit.request");

/** What rides under {@link REQUEST_KEY}: the request while it runs, `undefined` once it ended. */
export interface RequestHolder {
  ctx: Context | undefined;
}

/** Marks `span` failed with `error`: the exception as an event and the ERROR status with its message. */
export function failed(span: OtelApi.Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({
    code: otelApi().SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
}

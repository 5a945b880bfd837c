/**
 * The OpenTelemetry context of a request, made in one step. The API's own context copies its whole
 * map and makes three closures at every `setValue`, so a request's span and holder (two values)
 * cost two copies; this one is a small object holding what it adds and its parent, and a value it
 * does not hold is read from the parent. It is a complete `Context`: a value set on it later (a
 * library's key) makes another layer on top.
 */
import type { Context as OtelContext, Span } from "@opentelemetry/api";
import type { Context } from "koa";
import { REQUEST_KEY, type RequestHolder } from "./api.js";

/** The key under which the API keeps the active span (`createContextKey` is `Symbol.for`). */
export const SPAN_KEY: symbol = Symbol.for("OpenTelemetry Context Key SPAN");

/**
 * What every context here shares: a value set or deleted on it makes a {@link Layer} on top, and
 * `getValue` is each one's own.
 */
abstract class Layered implements OtelContext {
  abstract getValue(key: symbol): unknown;

  setValue(key: symbol, value: unknown): OtelContext {
    return new Layer(this, key, value);
  }

  deleteValue(key: symbol): OtelContext {
    return new Layer(this, key, undefined);
  }
}

/** One key and value over a parent context (`setValue` and `deleteValue` on a layer). */
class Layer extends Layered {
  constructor(
    private readonly parent: OtelContext,
    private readonly key: symbol,
    private readonly value: unknown,
  ) {
    super();
  }

  getValue(key: symbol): unknown {
    return key === this.key ? this.value : this.parent.getValue(key);
  }
}

/**
 * Whether a view named the server span after its route: `plain` when the route has no path
 * parameter (the path needs no secret check), `params` when it has some, `false` before.
 */
export type Routed = false | "plain" | "params";

/**
 * A request's context over `parent`: its server span (none when the request is not traced), the
 * view's span while the view runs, and the request itself (it is its own {@link RequestHolder}, the
 * log fields read `ctx` from it).
 *
 * The view's span is set on this same context for the time of the view ({@link enterView}), not
 * in a context of its own: the request then runs in one async context, not two nested ones. What
 * the view starts meanwhile (a render, a query, an outgoing call) is its child, as it would be with
 * a nested context; only a callback the view leaves behind to run after its end (a timer) sees the
 * server span again, where a nested context would have kept the view's ended span.
 *
 * `release` lets go of the spans and the request once the request ended: what outlives the request
 * and keeps its async context (a socket's timer, a pending write) then keeps a small object alive,
 * not the spans with their attributes nor the request, which the garbage collector would otherwise
 * copy and promote.
 */
export class RequestContext extends Layered implements RequestHolder {
  private view: Span | undefined = undefined;
  /** Set once the view named the server span after its route (the end then only adds the status). */
  routed: Routed = false;

  constructor(
    private readonly parent: OtelContext,
    /** The server span; `undefined` when the request is not traced or has ended. */
    public span: Span | undefined,
    public ctx: Context | undefined,
  ) {
    super();
  }

  /** Makes `span` (the view's) the active span until {@link leaveView}; returns the one it replaces. */
  enterView(span: Span): Span | undefined {
    const previous = this.view;
    this.view = span;
    return previous;
  }

  /** Makes `previous` (what {@link enterView} returned: none, the server span's turn) active again. */
  leaveView(previous: Span | undefined): void {
    this.view = previous;
  }

  /** Forgets the spans and the request (the request ended). */
  release(): void {
    this.span = undefined;
    this.view = undefined;
    this.ctx = undefined;
  }

  getValue(key: symbol): unknown {
    if (key === REQUEST_KEY) return this;
    if (key === SPAN_KEY) {
      const span = this.view ?? this.span;
      if (span) return span;
    }
    return this.parent.getValue(key);
  }
}

/** A span's context over `parent`, which forgets the span when released. */
export class SpanContext extends Layered {
  constructor(
    private readonly parent: OtelContext,
    private span: Span | undefined,
  ) {
    super();
  }

  /** Forgets the span (it ended); the parent's is read from then on. */
  release(): void {
    this.span = undefined;
  }

  getValue(key: symbol): unknown {
    if (key === SPAN_KEY && this.span) return this.span;
    return this.parent.getValue(key);
  }
}

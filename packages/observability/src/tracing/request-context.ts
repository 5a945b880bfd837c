/**
 * The OpenTelemetry context of a request, made in one step. The API's own context copies its whole
 * map and makes three closures at every `setValue`, so a request's span and holder (two values)
 * cost two copies; this one is a small object holding what it adds and its parent, and a value it
 * does not hold is read from the parent. It is a complete `Context`: a value set on it later (the
 * view's span, a library's key) makes another layer on top.
 */
import type { Context as OtelContext, Span } from "@opentelemetry/api";
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
 * A request's context: its span (none when the request is not traced) and its holder, over `parent`.
 * `release` lets go of the span once it ended: what outlives the request and keeps its async
 * context (a socket's timer, a pending write) then keeps a small object alive, not the span with
 * its attributes, which the garbage collector would otherwise copy and promote.
 */
export class RequestContext extends Layered {
  constructor(
    private readonly parent: OtelContext,
    private span: Span | undefined,
    readonly holder: RequestHolder,
  ) {
    super();
  }

  /** Forgets the span and the request (the request ended). */
  release(): void {
    this.span = undefined;
    this.holder.ctx = undefined;
  }

  getValue(key: symbol): unknown {
    if (key === REQUEST_KEY) return this.holder;
    if (key === SPAN_KEY && this.span) return this.span;
    return this.parent.getValue(key);
  }
}

/** A span's context over `parent` (the view's span), which forgets the span when released. */
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

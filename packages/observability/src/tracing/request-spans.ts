/**
 * The spans of a request: the server span (named `GET Blog.show` once the route is known, continuing
 * the W3C `traceparent` of a trusted proxy, never a client's) and, with `tracing.viewSpans`, the
 * view's span around its method and answer.
 *
 * What a traced request pays is kept to the OpenTelemetry API's cheapest paths, each looked up once
 * when the app is built (the SDK is registered by then): the tracer, the options and attributes
 * that do not change per request (the view's, its span's name, the server span's name per method),
 * one context per request (the spans and the request in one small object: request-context.ts),
 * one `context.with`, and no closure per request (the ends are awaited in plain async functions).
 */
import type { Attributes, Context as OtelContext, Span, SpanOptions } from "@opentelemetry/api";
import type { Context, Middleware, Next } from "koa";
import type { Route } from "routing-kernel";
import { loggedPath, routeNameOf, routeSlot, type HostRuntime } from "@fwkit/koa-host/plugin";
import { currentTracer, failed, otelApi } from "./api.js";
import { RequestContext, SpanContext, type Routed } from "./request-context.js";
import { rootSampling, type RootSampling } from "./sampling.js";

/** The incoming W3C trace context when a trusted proxy sent it, else a new trace's root. */
function trustedParent(ctx: Context): OtelContext {
  const runtime = ctx.runtime as HostRuntime | undefined;
  // A bare Koa app (no host) has no proxy setting: nothing is believed.
  if (!runtime?.fromTrustedProxy?.(ctx)) return otelApi().ROOT_CONTEXT;
  return otelApi().propagation.extract(otelApi().ROOT_CONTEXT, ctx.req.headers);
}

/** Whether W3C trace flags say sampled. */
const sampledFlag = (flags: number | undefined) => flags !== undefined && (flags & 1) === 1;

/** Options of {@link serverSpan}. */
export interface ServerSpanOptions {
  /** What the sampler can decide for a root, read at start-up (default: from the environment). */
  readonly sampling?: RootSampling;
  /**
   * Whether a request the sampler drops keeps its request in the async context, for the `reqId`
   * of the app logger's lines (`logContext`); default `true`. A sampled request always has it.
   */
  readonly requestInContext?: boolean;
}

/**
 * The server span of every request (see the file comment). A request the sampler drops: under a
 * parent-based sampler that samples no root (`rootSampling` says `parent`), a request without a
 * trusted sampled parent makes no span at all; under any other sampler, the SDK's non-recording
 * span, which rides in the context (the request's queries and outgoing calls are dropped too and
 * downstream services see the decision), and nothing more: no attributes at the end, no view span.
 * Without `requestInContext`, a request with no span and no parent to pass on runs in no context.
 * (A sampler that never samples makes the plugin leave this middleware out.)
 */
export function serverSpan(options: ServerSpanOptions = {}): Middleware {
  const { sampling = rootSampling(), requestInContext = true } = options;
  const api = otelApi();
  const tracer = currentTracer();
  const { context, trace } = api;
  const serverOptions: SpanOptions = { kind: api.SpanKind.SERVER };
  const root = api.ROOT_CONTEXT;
  return (ctx, next) => {
    // The balancer's trace context only from a trusted proxy (`trustProxy`, as the request id): a
    // client's forged `traceparent` would put its trace id in the logs and force the export.
    // Under a sampler that never samples, the request is in no trace: not even the proxy's is read.
    const parent = sampling === "never" ? root : trustedParent(ctx);
    const untraced =
      sampling === "never" ||
      (sampling === "parent" && (parent === root || !sampledFlag(trace.getSpanContext(parent)?.traceFlags)));
    if (untraced && !requestInContext) return parent === root ? next() : context.with(parent, next);
    const span = untraced ? undefined : tracer.startSpan(ctx.method, serverOptions, parent);
    if (span?.isRecording()) described(span, ctx);
    const requestContext = new RequestContext(parent, span, ctx);
    return context.with(requestContext, traced, undefined, requestContext, ctx, next);
  };
}

/**
 * The request's attributes, set on the started span rather than given to `startSpan`. The SDK
 * copies and checks attributes given at the start twice, for the sampler, which reads none of these
 * (the samplers `OTEL_TRACES_SAMPLER` names decide on the parent and the trace id alone): set here,
 * a traced request costs about 3,000 fewer instructions (a seventh of what tracing adds).
 */
function described(span: Span, ctx: Context): void {
  span.setAttribute("http.request.method", ctx.method);
  span.setAttribute("url.path", ctx.path);
  span.setAttribute("url.scheme", ctx.protocol);
  const agent = ctx.req.headers["user-agent"];
  if (agent) span.setAttribute("user_agent.original", agent);
}

/**
 * Runs the request in its context (`context.with` calls this with the context active) and ends the
 * server span once it is answered, thrown or not.
 */
async function traced(requestContext: RequestContext, ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } finally {
    const span = requestContext.span;
    const routed = requestContext.routed;
    requestContext.release();
    if (span) {
      if (span.isRecording()) named(span, ctx, routed);
      span.end();
    }
  }
}

/** The server span's status, and its route's name and pattern unless its view gave them. */
function named(span: Span, ctx: Context, routed: Routed): void {
  span.setAttribute("http.response.status_code", ctx.status);
  // The path again only when the route's parameters changed it: a secret one (a reset :token) is
  // written as its name, as in the log lines, so no exported span carries it. A view whose route
  // has no parameters said so at start-up: its path is never changed.
  if (routed !== "plain") {
    const path = loggedPath(ctx);
    if (path !== ctx.path) span.setAttribute("url.path", path);
  }
  if (ctx.status >= 500) span.setStatus({ code: otelApi().SpanStatusCode.ERROR });
  if (routed) return;
  // No view answered (a hand-written route, a 404, an error before the view): named here.
  const route = routeNameOf(ctx);
  if (!route) return;
  span.updateName(`${ctx.method} ${route}`);
  // The view the dispatcher matched is on the request; a bare Koa app (no host) has no runtime on
  // its context; a path routeNameOf could not name (one that does not decode) is not looked up again.
  const view = routeSlot.get(ctx) ?? (ctx.runtime as HostRuntime | undefined)?.lookupRoute(ctx)?.route;
  span.setAttribute("http.route", view ? view.path : route);
}

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** Options of {@link viewSpan}. */
export interface ViewSpanOptions {
  /**
   * A span of the view's own (its hooks, method and answer) under the server span; default `false`:
   * the server span alone, named after the route, is the request's span, and what the view starts
   * (a query, a job, an outgoing call) is its child.
   */
  readonly spans?: boolean;
}

/**
 * Names the server span after the view's route (`GET Blog.show`, `http.route`: names made at
 * start-up) and, with `spans`, gives the view a span of its own around its hooks, method and answer
 * (template included), as a child of the server span. Under a server span the sampler dropped, or
 * none, there is nothing to do: the test is one read of the active context. The view's span is set
 * on the request's context for the time of the view (see request-context.ts), not in a nested one.
 */
export function viewSpan(route: Route, options: ViewSpanOptions = {}): Middleware {
  const spans = options.spans === true;
  const api = otelApi();
  const tracer = currentTracer();
  const { context, trace } = api;
  const spanOptions: SpanOptions = {
    attributes: {
      "code.function.name": `${route.className}.${route.methodName}`,
      "fwkit.view.module": route.module,
    } satisfies Attributes,
  };
  // A route with no parameter in any of its patterns: its requests' paths need no secret check.
  const routed: Routed =
    route.parameters.length === 0 && !route.patterns.some((p) => /[:*]/.test(p)) ? "plain" : "params";
  const serverNames = new Map<string, string>(METHODS.map((method) => [method, `${method} ${route.id}`]));
  return (ctx, next) => {
    const active = context.active();
    if (active instanceof RequestContext) {
      const server = active.span;
      if (!server?.isRecording()) return next();
      server.updateName(serverNames.get(ctx.method) ?? `${ctx.method} ${route.id}`);
      server.setAttribute("http.route", route.path);
      active.routed = routed;
      if (!spans) return next();
      return inView(active, tracer.startSpan(route.id, spanOptions, active), ctx, next);
    }
    // A context some other code set on top of the request's (or a bare Koa app's): a nested one.
    if (!spans || !trace.getSpan(active)?.isRecording()) return next();
    const span = tracer.startSpan(route.id, spanOptions, active);
    const spanContext = new SpanContext(active, span);
    return viewEnd(span, ctx, context.with(spanContext, next), spanContext);
  };
}

/** Runs the view with its span active on the request's context, and ends the span. */
async function inView(requestContext: RequestContext, span: Span, ctx: Context, next: Next): Promise<void> {
  const previous = requestContext.enterView(span);
  try {
    await next();
    if (ctx.status >= 500) span.setStatus({ code: otelApi().SpanStatusCode.ERROR });
  } catch (error) {
    failed(span, error);
    throw error;
  } finally {
    requestContext.leaveView(previous);
    span.end();
  }
}

/** Ends the view's span of a nested context once `running` settles. */
async function viewEnd(span: Span, ctx: Context, running: Promise<unknown>, spanContext: SpanContext): Promise<void> {
  try {
    await running;
    if (ctx.status >= 500) span.setStatus({ code: otelApi().SpanStatusCode.ERROR });
  } catch (error) {
    failed(span, error);
    throw error;
  } finally {
    spanContext.release();
    span.end();
  }
}

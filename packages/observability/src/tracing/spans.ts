/**
 * The spans of a request: the server span (named `GET Blog.show` once the route is known, continuing
 * the W3C `traceparent` of a trusted proxy, never a client's), the view's span around its method and answer, and child spans
 * for the operations the host and batteries report (template renders, mails, storage calls, jobs)
 * and for knex queries (from knex's own query events).
 */
import type diagnostics from "node:diagnostics_channel";
import type { Attributes, Context as OtelContext, Span, SpanKind } from "@opentelemetry/api";
import type { Context, Middleware } from "koa";
import type { Route } from "routing-kernel";
import { loggedPath, routeNameOf, routeSlot, type HostRuntime } from "@fwkit/koa-host/plugin";
import {
  telemetry,
  type ConnectionMessage,
  type JobDispatchMessage,
  type JobMessage,
  type MailMessage,
  type RealtimeBroadcastMessage,
  type RenderMessage,
  type StorageMessage,
  type TracedMessage,
} from "@fwkit/battery-kit";
import type { KnexLike, KnexQuery } from "../metrics/knex.js";
import { operationOf } from "../metrics/knex.js";
import { otelApi, type RequestHolder } from "./api.js";
import { RequestContext, SpanContext } from "./request-context.js";
import { rootSampling, type RootSampling } from "./sampling.js";

/** This package's tracer from the provider registered now (middleware and listeners keep theirs). */
const currentTracer = () => otelApi().trace.getTracer("@fwkit/observability");

function failed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({
    code: otelApi().SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
}

/** The incoming W3C trace context when a trusted proxy sent it, else a new trace's root. */
function trustedParent(ctx: Context): OtelContext {
  const runtime = ctx.runtime as HostRuntime | undefined;
  // A bare Koa app (no host) has no proxy setting: nothing is believed.
  if (!runtime?.fromTrustedProxy?.(ctx)) return otelApi().ROOT_CONTEXT;
  return otelApi().propagation.extract(otelApi().ROOT_CONTEXT, ctx.req.headers);
}

/**
 * The server span of every request (see the file comment). What a request pays is kept to the
 * OpenTelemetry API's cheapest paths, each looked up once when the app is built (the SDK is
 * registered by then): the tracer (`getTracer` per request builds a key and reads the provider's
 * map), the span's attributes given once at its start, one context (the span and the request
 * together, one small object: see request-context.ts) and one `context.with`, the span ended in
 * the promise's own callbacks (no async wrapper).
 *
 * A request the sampler drops: under a sampler that never samples a root (`rootSampling`), no span
 * at all (its log lines carry their request id, no trace ids); else the SDK's non-recording span, which still rides in the context (so the request's
 * queries and outgoing calls are dropped too and downstream services see the decision), and
 * nothing more: no attributes at the end, no view span.
 */
export function serverSpan(sampling: RootSampling = rootSampling()): Middleware {
  const api = otelApi();
  const tracer = currentTracer();
  const { context, trace } = api;
  const kind = api.SpanKind.SERVER;
  const root = api.ROOT_CONTEXT;
  return (ctx, next) => {
    // The balancer's trace context only from a trusted proxy (`trustProxy`, as the request id): a
    // client's forged `traceparent` would put its trace id in the logs and force the export.
    // Under a sampler that never samples, the request is in no trace: not even the proxy's is read.
    const parent = sampling === "never" ? root : trustedParent(ctx);
    // The request rides along for the log lines' fields (log-context.ts), in a holder emptied when
    // the request ends: what outlives the request and keeps its async context (a socket's timer, a
    // pending write) then no longer keeps the whole request alive, whose objects the garbage
    // collector would otherwise copy and promote (that was about half of a traced request's CPU).
    const holder: RequestHolder = { ctx };
    const untraced =
      sampling === "never" ||
      (sampling === "parent" && (parent === root || !sampledFlag(trace.getSpanContext(parent)?.traceFlags)));
    const span = untraced
      ? undefined
      : tracer.startSpan(
          ctx.method,
          {
            kind,
            attributes: {
              "http.request.method": ctx.method,
              "url.path": ctx.path,
              "url.scheme": ctx.protocol,
              "user_agent.original": ctx.req.headers["user-agent"] || undefined,
            },
          },
          parent,
        );
    const requestContext = new RequestContext(parent, span, holder);
    return context.with(requestContext, next).then(
      () => {
        requestContext.release();
        if (span) ended(span, ctx);
      },
      (error: unknown) => {
        requestContext.release();
        if (span) ended(span, ctx);
        throw error;
      },
    );
  };
}

/** Whether W3C trace flags say sampled. */
const sampledFlag = (flags: number | undefined) => flags !== undefined && (flags & 1) === 1;

function ended(span: Span, ctx: Context): void {
  if (span.isRecording()) named(span, ctx);
  span.end();
}

function named(span: Span, ctx: Context): void {
  const route = routeNameOf(ctx);
  if (route) span.updateName(`${ctx.method} ${route}`);
  // The view the dispatcher matched is on the request; a bare Koa app (no host) has no runtime on
  // its context; a path routeNameOf could not name (one that does not decode) is not looked up again.
  const view = route
    ? (routeSlot.get(ctx) ?? (ctx.runtime as HostRuntime | undefined)?.lookupRoute(ctx)?.route)
    : undefined;
  // The path again only when the route's parameters changed it: a secret one (a reset :token) is
  // written as its name, as in the log lines, so no exported span carries it.
  const attributes: Attributes = { "http.response.status_code": ctx.status };
  const path = loggedPath(ctx);
  if (path !== ctx.path) attributes["url.path"] = path;
  if (view) attributes["http.route"] = view.path;
  else if (route) attributes["http.route"] = route;
  span.setAttributes(attributes);
  if (ctx.status >= 500) span.setStatus({ code: otelApi().SpanStatusCode.ERROR });
}

/**
 * The view's span: its hooks, method and answer (template included), as a child of the server span.
 * Under a server span the sampler dropped, or none, there is none (its children would be dropped
 * anyway): the test is one read of the active context.
 */
export function viewSpan(route: Route): Middleware {
  const api = otelApi();
  const tracer = currentTracer();
  const { context, trace } = api;
  const attributes: Attributes = {
    "code.function.name": `${route.className}.${route.methodName}`,
    "fwkit.view.module": route.module,
  };
  return (ctx, next) => {
    const active = context.active();
    if (!trace.getSpan(active)?.isRecording()) return next();
    const span = tracer.startSpan(route.id, { attributes }, active);
    const spanContext = new SpanContext(active, span);
    return context.with(spanContext, next).then(
      () => {
        spanContext.release();
        if (ctx.status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
        span.end();
      },
      (error: unknown) => {
        spanContext.release();
        failed(span, error);
        span.end();
        throw error;
      },
    );
  };
}

/** How an operation's span is made beyond its name and attributes. */
interface OperationOptions<M> {
  readonly kind?: SpanKind;
  /** The span's parent context; default: what is active where the call began. */
  readonly parent?: (message: M) => OtelContext;
  /** Called once the span is started (a job is then run with its span active). */
  readonly started?: (message: M, span: Span, parent: OtelContext) => void;
}

/** Starts a span per operation of `channel`, a child of what is active where the call began (see {@link OperationOptions}). */
function spanPerOperation<M extends TracedMessage>(
  channel: diagnostics.TracingChannel<object, M>,
  name: (message: M) => string,
  attributes: (message: M) => Attributes,
  options: OperationOptions<M> = {},
): () => void {
  const spans = new WeakMap<object, Span>();
  const tracer = currentTracer();
  const handlers: diagnostics.TracingChannelSubscribers<M> = {
    start: (message: M) => {
      const parent = options.parent?.(message) ?? otelApi().context.active();
      const span = tracer.startSpan(
        name(message),
        { kind: options.kind ?? otelApi().SpanKind.INTERNAL, attributes: attributes(message) },
        parent,
      );
      spans.set(message, span);
      options.started?.(message, span, parent);
    },
    end: () => undefined,
    asyncStart: () => undefined,
    error: (message: M) => {
      const span = spans.get(message);
      if (span) failed(span, message.error);
    },
    asyncEnd: (message: M) => {
      spans.get(message)?.end();
      spans.delete(message);
    },
  };
  channel.subscribe(handlers);
  return () => void channel.unsubscribe(handlers);
}

/** A job run continues the trace stored when it was dispatched; without one, what is active. */
function jobParent(message: JobMessage): OtelContext {
  return message.trace
    ? otelApi().propagation.extract(otelApi().ROOT_CONTEXT, message.trace)
    : otelApi().context.active();
}

/** Writes the dispatcher's trace context into each dispatched job's carrier (stored with the job). */
function jobDispatchContext(): () => void {
  const inject = (message: unknown) =>
    otelApi().propagation.inject(otelApi().context.active(), (message as JobDispatchMessage).carrier);
  telemetry.jobDispatch.subscribe(inject);
  return () => void telemetry.jobDispatch.unsubscribe(inject);
}

/** Spans for knex queries of every connection the data battery opens. */
function knexSpans(): () => void {
  const watched = new Set<KnexLike>();
  const listen = (message: unknown) => {
    const { knex, dialect } = message as ConnectionMessage;
    const instance = knex as KnexLike;
    if (watched.has(instance)) return;
    watched.add(instance);
    const spans = new Map<string, Span>();
    instance.on("query", ((query: KnexQuery) => {
      if (!query?.__knexQueryUid) return;
      const operation = operationOf(query);
      spans.set(
        query.__knexQueryUid,
        currentTracer().startSpan(`${operation} ${dialect}`, {
          kind: otelApi().SpanKind.CLIENT,
          attributes: { "db.system.name": dialect, "db.operation.name": operation, "db.query.text": query.sql },
        }),
      );
    }) as (...args: never[]) => void);
    const end = (error: boolean) =>
      ((result: unknown, query: KnexQuery) => {
        const uid = query?.__knexQueryUid;
        const span = uid === undefined ? undefined : spans.get(uid);
        if (!span) return;
        spans.delete(uid!);
        if (error) failed(span, result);
        span.end();
      }) as (...args: never[]) => void;
    instance.on("query-response", end(false));
    instance.on("query-error", end(true));
  };
  telemetry.connection.subscribe(listen);
  return () => {
    telemetry.connection.unsubscribe(listen);
    watched.clear();
  };
}

/** Listens for the operations to trace; the result stops listening. */
export function operationSpans(): () => void {
  const stops = [
    spanPerOperation<RenderMessage>(
      telemetry.render,
      (m) => `render ${m.handler.replace(/\(\)$/, "")}`,
      () => ({}),
    ),
    spanPerOperation<MailMessage>(
      telemetry.mail,
      () => "mail send",
      (m) => (m.template ? { "fwkit.mail.template": m.template } : {}),
      { kind: otelApi().SpanKind.CLIENT },
    ),
    spanPerOperation<StorageMessage>(
      telemetry.storage,
      (m) => `storage ${m.operation}`,
      (m) => ({ "fwkit.storage.operation": m.operation }),
      { kind: otelApi().SpanKind.CLIENT },
    ),
    // The channel's name is an attribute (the span's name holds its pattern, a name of few values);
    // the payload never is.
    spanPerOperation<RealtimeBroadcastMessage>(
      telemetry.realtimeBroadcast,
      (m) => `realtime broadcast ${m.pattern}`,
      (m) => ({
        "messaging.system": "fwkit-realtime",
        "messaging.operation.type": "publish",
        "messaging.destination.name": m.channel,
        "messaging.destination.template": m.pattern,
        "fwkit.realtime.event": m.event,
      }),
      { kind: otelApi().SpanKind.PRODUCER },
    ),
    spanPerOperation<JobMessage>(
      telemetry.job,
      (m) => `job ${m.queue} ${m.name}`,
      (m) => ({ "messaging.destination.name": m.queue, "fwkit.job.name": m.name }),
      {
        kind: otelApi().SpanKind.CONSUMER,
        parent: jobParent,
        // The job runs with its span active: its queries and the jobs it dispatches are in its trace.
        started: (message, span, parent) =>
          void (message.within = (run) => otelApi().context.with(otelApi().trace.setSpan(parent, span), run)),
      },
    ),
    jobDispatchContext(),
    knexSpans(),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}

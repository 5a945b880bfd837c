/**
 * Child spans for the operations the host and batteries report (template renders, mails, storage
 * calls, jobs) and for knex queries (from knex's own query events); the request's own spans are in
 * request-spans.ts.
 */
import type diagnostics from "node:diagnostics_channel";
import type { Attributes, Context as OtelContext, Span, SpanKind } from "@opentelemetry/api";
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
import { currentTracer, failed, otelApi } from "./api.js";

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

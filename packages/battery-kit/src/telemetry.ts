/**
 * The events the host and the batteries report for metrics and traces, on Node's
 * `diagnostics_channel`: a battery publishes, an observer (the observability battery, or any
 * APM agent) subscribes. Publishing asks `hasSubscribers` first, so an app that observes nothing
 * pays one property read per event and builds no message.
 *
 * Operations (a template render, a mail, a storage call, a job) are tracing channels: `start`
 * when the call begins (in the caller's async context, so a span started there is a child of the
 * request's), `error` when it fails (`message.error`), and `asyncEnd` when it is over, whether it
 * answered synchronously or with a promise. Facts (a knex connection opened, a service down or
 * back, a login refused) are plain channels.
 */
import diagnostics from "node:diagnostics_channel";

/** What every operation message carries once it is over. */
export interface TracedMessage {
  /** Set when the operation failed. */
  error?: unknown;
}

/** A template render: the route handler (`Blog.show()`) whose template is rendered. */
export interface RenderMessage extends TracedMessage {
  readonly handler: string;
}

/** A mail handed to the transport: its template name, when it has one. */
export interface MailMessage extends TracedMessage {
  readonly template: string | undefined;
}

/** A storage operation (`put`, `get`, `delete`, `list`...). */
export interface StorageMessage extends TracedMessage {
  readonly operation: string;
}

/**
 * A realtime broadcast, from the call until the backend has it: the channel's name and the
 * event's, never the payload (it may hold what a span must not carry).
 */
export interface RealtimeBroadcastMessage extends TracedMessage {
  /** The channel (`orders/42`). */
  readonly channel: string;
  /** The pattern it matched (`orders/:id`), a name of few values for the span. */
  readonly pattern: string;
  /** The event (`updated`). */
  readonly event: string;
}

/** A job run by a queue worker. */
export interface JobMessage extends TracedMessage {
  readonly queue: string;
  readonly name: string;
  /** The trace context stored when the job was dispatched (see {@link JobDispatchMessage}), if any. */
  readonly trace?: Readonly<Record<string, string>>;
  /**
   * Set by an observer at `start`: runs the job inside the observer's context (its span active), so
   * what the job does (a query, a job it dispatches) belongs to the job's trace.
   */
  within?: <T>(run: () => T) => T;
}

/**
 * A job being dispatched, published in the dispatcher's async context before it is queued. An
 * observer that traces writes the active context into `carrier` (W3C `traceparent`/`tracestate`);
 * the jobs battery stores a filled carrier with the job and hands it back as the run's
 * {@link JobMessage.trace}, so the run continues the dispatcher's trace on any backend.
 */
export interface JobDispatchMessage {
  readonly queue: string;
  readonly name: string;
  /** Filled by the observer; left empty, nothing is stored. */
  readonly carrier: Record<string, string>;
}

/** A knex connection pool opened by the data battery (its `query`/`query-response` events, its pool). */
export interface ConnectionMessage {
  /** The knex instance. */
  readonly knex: object;
  /** The dialect: `postgres`, `mysql`, `sqlite`. */
  readonly dialect: string;
}

/** A backing service's state as its outage log tells it (`failed` per failure, `down` on changes). */
export interface OutageMessage {
  /** The service as the operator knows it (`security: the redis session store`). */
  readonly service: string;
  /** Whether it is down after this event. */
  readonly down: boolean;
  /** True when this event is a failure (a refused connection, a failed command). */
  readonly failure: boolean;
}

/** A sign-in the login limiter refused. */
export interface LoginRefusedMessage {
  /** What ran out: `account`, `address`, `pair` (the limiter's scope). */
  readonly scope: string;
}

/** A job queue's counts, published by the jobs battery when it reads them. */
export interface QueueMessage {
  readonly queue: string;
  readonly waiting: number;
  readonly active: number;
  readonly delayed?: number;
  readonly failed?: number;
}

/** A failed attempt of a job, published by the jobs battery in the worker that ran it. */
export interface JobFailedMessage {
  readonly queue: string;
  readonly name: string;
  /** The attempt that failed (1 for the first). */
  readonly attempt: number;
  /** True when no attempt is left: the job is kept as failed. */
  readonly final: boolean;
}

/**
 * A realtime node's figures, published by the realtime battery whenever they change: the streams
 * open now, and the messages written to streams and the streams dropped since the last message.
 */
export interface RealtimeTelemetryMessage {
  /** Connections (event streams and WebSockets) open on this process now. */
  readonly connections: number;
  /** Messages written to streams since the last report. */
  readonly sent: number;
  /** Streams cut since the last report because their client read too slowly. */
  readonly dropped: number;
  /** The connections open now by transport (server-sent events, WebSockets). */
  readonly transports?: { readonly sse: number; readonly websocket: number };
  /**
   * Broadcast latencies since the last report, in seconds: from the broadcast (its id's time) to
   * the write to this node's subscribers, one per message delivered here.
   */
  readonly latencies?: readonly number[];
}

/** The channels, by what they report. Names are stable: an outside agent may subscribe by name. */
export const telemetry = Object.freeze({
  render: diagnostics.tracingChannel<object, RenderMessage>("fwkit:render"),
  mail: diagnostics.tracingChannel<object, MailMessage>("fwkit:mail"),
  storage: diagnostics.tracingChannel<object, StorageMessage>("fwkit:storage"),
  job: diagnostics.tracingChannel<object, JobMessage>("fwkit:job"),
  jobDispatch: diagnostics.channel("fwkit:jobs.dispatch"),
  jobFailed: diagnostics.channel("fwkit:jobs.failed"),
  connection: diagnostics.channel("fwkit:data.connection"),
  outage: diagnostics.channel("fwkit:outage"),
  loginRefused: diagnostics.channel("fwkit:security.login-refused"),
  queue: diagnostics.channel("fwkit:jobs.queue"),
  realtime: diagnostics.channel("fwkit:realtime"),
  realtimeBroadcast: diagnostics.tracingChannel<object, RealtimeBroadcastMessage>("fwkit:realtime.broadcast"),
});

type Operation<M extends TracedMessage> = diagnostics.TracingChannel<object, M>;

/**
 * Runs `call` as one operation of `channel` (see the file comment): with no subscriber it is just
 * `call()`; otherwise `start`, `error` on failure and `asyncEnd` once it is over, sync or async.
 */
export function traceCall<M extends TracedMessage, T>(
  channel: Operation<M>,
  message: () => NoInfer<M>,
  call: () => T,
): T {
  if (!channel.hasSubscribers) return call();
  const sent = message();
  const failed = (error: unknown) => {
    sent.error = error;
    channel.error.publish(sent);
    channel.asyncEnd.publish(sent);
  };
  channel.start.publish(sent);
  let result: T;
  try {
    result = call();
  } catch (error) {
    failed(error);
    throw error;
  }
  if (isThenable(result)) {
    return result.then(
      (value) => {
        channel.asyncEnd.publish(sent);
        return value;
      },
      (error: unknown) => {
        failed(error);
        throw error;
      },
    ) as T;
  }
  channel.asyncEnd.publish(sent);
  return result;
}

/** Whether a traced call's result is a promise (or any thenable) to follow to its end. */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/** Publishes a fact on a plain channel when someone listens; `message` is built only then. */
export function report(channel: diagnostics.Channel, message: () => object): void {
  if (channel.hasSubscribers) channel.publish(message());
}

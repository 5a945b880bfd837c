/**
 * The batteries' metrics, from the host's telemetry channels: backing services down and their
 * failures (the outage logs of the session store, cache, Redis...), login refusals, mails sent and
 * failed, storage operations, jobs (and their failed attempts) and their queues, realtime streams
 * and the messages written to them. Listening starts at `setup` and stops at
 * `close`; a battery that publishes nothing costs nothing.
 */
import type diagnostics from "node:diagnostics_channel";
import type { Registry } from "prom-client";
import { promClient } from "./prom.js";
import {
  telemetry,
  type JobFailedMessage,
  type JobMessage,
  type LoginRefusedMessage,
  type MailMessage,
  type OutageMessage,
  type QueueMessage,
  type RealtimeTelemetryMessage,
  type StorageMessage,
  type TracedMessage,
} from "@fwkit/battery-kit";
import type { KnexMetrics } from "./knex.js";

type Unsubscribe = () => void;

function onChannel<M>(channel: diagnostics.Channel, listener: (message: M) => void): Unsubscribe {
  const handler = (message: unknown) => listener(message as M);
  channel.subscribe(handler);
  return () => channel.unsubscribe(handler);
}

/** Times an operation channel: `done(message, seconds)` once it is over. */
function onOperation<M extends TracedMessage>(
  channel: diagnostics.TracingChannel<object, M>,
  done: (message: M, seconds: number) => void,
): Unsubscribe {
  const started = new WeakMap<object, number>();
  const handlers: diagnostics.TracingChannelSubscribers<M> = {
    start: (message: M) => void started.set(message, performance.now()),
    end: () => undefined,
    asyncStart: () => undefined,
    error: () => undefined,
    asyncEnd: (message: M) => {
      const start = started.get(message);
      if (start !== undefined) done(message, (performance.now() - start) / 1000);
    },
  };
  channel.subscribe(handlers);
  return () => void channel.unsubscribe(handlers);
}

const outcome = (message: TracedMessage) => (message.error === undefined ? "ok" : "error");

/** Registers the batteries' metrics and listens; the result stops listening. */
export function batteryMetrics(registry: Registry, prefix: string, knex: KnexMetrics): Unsubscribe {
  const registers = [registry];
  const down = new (promClient().Gauge)({
    name: `${prefix}backing_service_down`,
    help: "1 while a backing service (session store, cache, Redis...) is down, as its outage log tells it.",
    labelNames: ["service"],
    registers,
    aggregator: "max",
  });
  const failures = new (promClient().Counter)({
    name: `${prefix}backing_service_failures_total`,
    help: "Failures of a backing service (refused connections, failed commands).",
    labelNames: ["service"],
    registers,
  });
  const refusals = new (promClient().Counter)({
    name: `${prefix}login_refusals_total`,
    help: "Sign-ins the login limiter refused, by what ran out.",
    labelNames: ["scope"],
    registers,
  });
  const mails = new (promClient().Counter)({
    name: `${prefix}mail_messages_total`,
    help: "Mails handed to the transport, by outcome (sent or failed).",
    labelNames: ["outcome"],
    registers,
  });
  const storage = new (promClient().Histogram)({
    name: `${prefix}storage_operation_duration_seconds`,
    help: "File storage operations by operation and outcome.",
    labelNames: ["operation", "outcome"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const jobs = new (promClient().Histogram)({
    name: `${prefix}job_duration_seconds`,
    help: "Jobs run, by queue, job name and outcome.",
    labelNames: ["queue", "name", "outcome"],
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
    registers,
  });
  const jobFailures = new (promClient().Counter)({
    name: `${prefix}job_failures_total`,
    help: "Failed job attempts, by queue, job name and whether it was the last (final: the job is kept as failed).",
    labelNames: ["queue", "name", "final"],
    registers,
  });
  const queueLabels = ["queue", "state"] as const;
  const queues = new (promClient().Gauge)({
    name: `${prefix}job_queue_jobs`,
    help: "Jobs of a queue by state (waiting, active, delayed, failed), as last read by the jobs battery.",
    labelNames: queueLabels,
    registers,
    aggregator: "max",
  });
  const streams = new (promClient().Gauge)({
    name: `${prefix}realtime_connections`,
    help: "Realtime connections (event streams and WebSockets) open now, summed over the workers.",
    registers,
  });
  const byTransport = new (promClient().Gauge)({
    name: `${prefix}realtime_connections_by_transport`,
    help: "Realtime connections open now by transport (sse, websocket), summed over the workers.",
    labelNames: ["transport"],
    registers,
  });
  const latency = new (promClient().Histogram)({
    name: `${prefix}realtime_broadcast_latency_seconds`,
    help: "Time from a broadcast (its id's time) to its write to the subscribers of this process, per message delivered.",
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  const streamMessages = new (promClient().Counter)({
    name: `${prefix}realtime_messages_sent_total`,
    help: "Realtime messages written to event streams.",
    registers,
  });
  const streamDrops = new (promClient().Counter)({
    name: `${prefix}realtime_streams_dropped_total`,
    help: "Realtime event streams cut because their client read too slowly.",
    registers,
  });
  const stops: Unsubscribe[] = [
    onChannel<RealtimeTelemetryMessage>(telemetry.realtime, ({ connections, sent, dropped, transports, latencies }) => {
      streams.set(connections);
      if (transports) for (const [transport, open] of Object.entries(transports)) byTransport.set({ transport }, open);
      for (const seconds of latencies ?? []) latency.observe(seconds);
      if (sent > 0) streamMessages.inc(sent);
      if (dropped > 0) streamDrops.inc(dropped);
    }),
    onChannel<OutageMessage>(telemetry.outage, ({ service, down: isDown, failure }) => {
      down.set({ service }, isDown ? 1 : 0);
      if (failure) failures.inc({ service });
    }),
    onChannel<JobFailedMessage>(telemetry.jobFailed, ({ queue, name, final }) =>
      jobFailures.inc({ queue, name, final: final ? "true" : "false" }),
    ),
    onChannel<LoginRefusedMessage>(telemetry.loginRefused, ({ scope }) => refusals.inc({ scope })),
    onChannel<QueueMessage>(telemetry.queue, (counts) => {
      for (const state of ["waiting", "active", "delayed", "failed"] as const) {
        const value = counts[state];
        if (typeof value === "number") queues.set({ queue: counts.queue, state }, value);
      }
    }),
    onChannel<{ knex: object; dialect: string }>(telemetry.connection, (message) => knex.watch(message)),
    onOperation<MailMessage>(telemetry.mail, (message) =>
      mails.inc({ outcome: message.error === undefined ? "sent" : "failed" }),
    ),
    onOperation<StorageMessage>(telemetry.storage, (message, seconds) =>
      storage.observe({ operation: message.operation, outcome: outcome(message) }, seconds),
    ),
    onOperation<JobMessage>(telemetry.job, (message, seconds) =>
      jobs.observe({ queue: message.queue, name: message.name, outcome: outcome(message) }, seconds),
    ),
  ];
  return () => {
    for (const stop of stops) stop();
    knex.close();
  };
}

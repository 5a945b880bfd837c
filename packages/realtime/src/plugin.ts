/**
 * The realtime battery as a host plugin: off (no middleware, no connection, no timer) until
 * `realtime.channels` declares a channel. Then at start-up it connects the backend `REALTIME_URL`
 * names, makes the app's hub what `broadcast()` uses, and serves the event stream endpoint.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Host } from "@fwkit/koa-host";
import { isDraining } from "@fwkit/koa-host/operations";
import { report, telemetry } from "@fwkit/battery-kit";
import { runtimeOf, type HostPlugin, type PluginContext } from "@fwkit/koa-host/plugin";
import type { BackendHandlers, ReplayWindow } from "./backends/types.js";
import { REALTIME_CONFIG_KEYS, readRealtimeConfig, type RealtimeSettings } from "./config.js";
import { RealtimeHub } from "./hub.js";
import { setCurrentHub } from "./broadcast.js";
import type { SubscribeRate } from "./rate.js";
import type { EventStream, StreamEvents } from "./stream.js";
import type { SocketConnection, SocketEvents } from "./socket/connection.js";
import type { WebSocketServer } from "ws";

/** The parts the plugin serves with, loaded by `setup` when a channel is declared. */
type Parts = typeof import("./plugin-parts.js");

/** The plugin's name among the host's plugins. */
export const REALTIME_PLUGIN_NAME = "realtime";

/** The realtime battery's plugin. */
export interface RealtimePlugin extends HostPlugin {
  /** The app's hub, or undefined while realtime is off. */
  readonly hub: RealtimeHub | undefined;
  /** The event streams and WebSockets open on this process now. */
  readonly connections: number;
  /** `broadcast(channel, event, data)` through this app's hub. */
  broadcast(channel: string, event: string, data: unknown): Promise<string>;
}

/** The realtime plugin of a built app, or undefined when the battery is switched off. */
export function realtimeOf(host: Host): RealtimePlugin | undefined {
  return runtimeOf(host.koa.context).plugins.find((plugin) => plugin.name === REALTIME_PLUGIN_NAME) as
    | RealtimePlugin
    | undefined;
}

/** `fwkit-<name>` from the app's package.json, so apps sharing a Redis database keep their channels apart. */
function appPrefix(root: string): string {
  try {
    const name = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { name?: unknown }).name;
    if (typeof name === "string") {
      const cleaned = name
        .replace(/^@/, "")
        .replace(/[^A-Za-z0-9_.-]+/g, "-")
        .replace(/^[-.]+|[-.]+$/g, "");
      if (cleaned !== "") return `fwkit-${cleaned}`.slice(0, 50);
    }
  } catch {
    // No package.json: the shared prefix.
  }
  return "fwkit";
}

// How often the node looks at its streams: heartbeats due, a shutdown begun.
const TICK_MS = 1000;

/** See the module comment. Config: `realtimeUrl` (`REALTIME_URL`) and the `realtime` block (docs/realtime.md). */
export function realtimePlugin(): RealtimePlugin {
  let settings: RealtimeSettings | undefined;
  let hub: RealtimeHub | undefined;
  let tick: NodeJS.Timeout | undefined;
  let rate: SubscribeRate | undefined;
  // Loaded once, in setup, by an app that declares a channel (the backends, endpoints, client).
  let parts: Parts | undefined;
  let path = "";
  let logger: PluginContext["logger"] | undefined;
  const streams = new Set<EventStream>();
  const sockets = new Set<SocketConnection>();
  let socketServer: WebSocketServer | undefined;
  let clientSource = "";
  const open = () => streams.size + sockets.size;
  let sentSince = 0;
  let droppedSince = 0;
  // Latencies since the last report, bounded: a report goes out at least with every message written.
  let latencies: number[] = [];

  const publishFigures = () => {
    if (!telemetry.realtime.hasSubscribers) return;
    const sent = sentSince;
    const dropped = droppedSince;
    sentSince = droppedSince = 0;
    const measured = latencies;
    latencies = [];
    report(telemetry.realtime, () => ({
      connections: open(),
      sent,
      dropped,
      transports: { sse: streams.size, websocket: sockets.size },
      latencies: measured,
    }));
  };
  const events: StreamEvents = {
    sent(count) {
      sentSince += count;
      publishFigures();
    },
    dropped() {
      droppedSince++;
      logger?.warn({ code: "E_REALTIME_SLOW_CLIENT" }, "realtime stream dropped: its client reads too slowly");
    },
    closed(stream) {
      streams.delete(stream);
      publishFigures();
    },
  };
  const socketEvents: SocketEvents = {
    sent: events.sent,
    dropped() {
      droppedSince++;
      logger?.warn({ code: "E_REALTIME_SLOW_CLIENT" }, "realtime WebSocket dropped: its client reads too slowly");
    },
    closed(socket) {
      sockets.delete(socket);
      publishFigures();
    },
  };

  const onTick = () => {
    if (!settings) return;
    const now = Date.now();
    if (isDraining()) {
      // Shutting down: every client reconnects (to another node) and resumes with Last-Event-ID.
      for (const stream of [...streams]) stream.end(settings.retryMs);
      for (const socket of [...sockets]) socket.end(parts!.CLOSE_CODES.restart, "restarting");
      return;
    }
    for (const stream of streams) if (now - stream.lastWrite >= settings.heartbeatMs) stream.heartbeat(now);
    for (const socket of sockets) if (now - socket.lastWrite >= settings.heartbeatMs) socket.heartbeat(now);
    rate?.sweep(now);
    hub?.presenceTick(now);
  };

  const setup = async (context: PluginContext): Promise<void> => {
    settings = readRealtimeConfig(context.config);
    if (!settings) return;
    const { memoryBackend, readClientSource, redisBackend, SubscribeRate } = (parts ??= await import(
      "./plugin-parts.js"
    ));
    logger = context.logger;
    const current = new RealtimeHub(settings.channels, settings.maxMessageSize, context.config.env === "test");
    const window: ReplayWindow = { size: settings.replaySize, ageMs: settings.replayAgeMs };
    const handlers: BackendHandlers = {
      deliver: (message) => current.deliver(message),
      resync: () => void current.resync(),
    };
    current.backend =
      settings.kind === "redis"
        ? await redisBackend(settings.url, settings.prefix ?? appPrefix(context.config.root), window, handlers)
        : memoryBackend(window, handlers);
    if (settings.kind === "memory" && context.config.env === "production")
      logger.warn(
        "REALTIME_URL is not set: broadcasts reach only the streams of the process that makes them; set REALTIME_URL=redis://... when the app runs on more than one process",
      );
    current.onDelivered = (ms) => {
      if (telemetry.realtime.hasSubscribers && latencies.length < 1000) latencies.push(ms / 1000);
    };
    current.presenceTtlMs = settings.presenceTtl;
    hub = current;
    rate = new SubscribeRate(settings.rateLimit, settings.rateWindowMs);
    path = `${context.basePath}${settings.path}`;
    clientSource = readClientSource();
    // ws is loaded only by an app that declares channels; one server for every handshake, no port of its own.
    const { WebSocketServer } = await import("ws");
    socketServer = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      perMessageDeflate: false,
      maxPayload: settings.maxMessageSize,
    });
    setCurrentHub(hub);
    tick = setInterval(onTick, TICK_MS);
    tick.unref();
  };

  const broadcast = (channel: string, event: string, data: unknown): Promise<string> => {
    if (!hub) return setCurrentHub.off();
    return hub.broadcast(channel, event, data);
  };

  return {
    name: REALTIME_PLUGIN_NAME,
    configKeys: REALTIME_CONFIG_KEYS,
    get hub() {
      return hub;
    },
    get connections() {
      return open();
    },
    broadcast,
    setup,
    phases: {
      request: () =>
        hub && settings && rate && logger && socketServer && parts
          ? [
              parts.socketEndpoint({
                settings,
                hub,
                rate,
                events: socketEvents,
                server: socketServer,
                sockets,
                open,
                path,
              }),
              parts.eventsEndpoint({ settings, hub, rate, streams, open, events, logger, path }),
              parts.clientAsset(`${path}/client.js`, clientSource),
            ]
          : [],
    },
    upgradePaths: () => (hub ? [path] : []),
    readiness: () => (hub ? [{ name: "realtime", required: false, check: () => hub!.backend.ping() }] : []),
    async close() {
      clearInterval(tick);
      for (const stream of [...streams]) stream.end(settings?.retryMs ?? 2000);
      for (const socket of [...sockets]) socket.end(parts!.CLOSE_CODES.goingAway, "closing");
      socketServer?.close();
      if (hub) setCurrentHub.release(hub);
      await hub?.backend.close();
      hub = undefined;
    },
  };
}

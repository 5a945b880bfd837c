/**
 * The event stream endpoint (`GET /_events?channel=a&channel=b`): checks the subscription (caps,
 * rate, each channel's authorisation), then takes the response over from Koa and streams. Every
 * refusal happens before the first byte, so it is an ordinary coded answer (400, 403, 404, 429, 503).
 */
import type { Context, Middleware } from "koa";
import type { PluginContext } from "@fwkit/koa-host/plugin";
import { isDraining } from "@fwkit/koa-host/operations";
import { authorizeChannel } from "./authorize.js";
import type { RealtimeSettings } from "./config.js";
import { E_REALTIME_FULL, E_REALTIME_RATE_LIMITED, E_REALTIME_SUBSCRIPTION_INVALID } from "./errors.js";
import type { PresenceHandle, RealtimeHub } from "./hub.js";
import { parseStreamId } from "./ids.js";
import type { SubscribeRate } from "./rate.js";
import { EventStream, type StreamEvents } from "./stream.js";

/** What the endpoint shares with its plugin. */
export interface EndpointState {
  readonly settings: RealtimeSettings;
  readonly hub: RealtimeHub;
  readonly rate: SubscribeRate;
  readonly streams: Set<EventStream>;
  /** Streams and WebSockets open on this process now: the cap counts both transports. */
  readonly open: () => number;
  readonly events: StreamEvents;
  readonly logger: PluginContext["logger"];
  /** The path with the app's base path. */
  readonly path: string;
}

/** The channels of the query (`channel=a&channel=b`, or `channel=a,b`), each once. */
function channelsOf(ctx: Context, max: number): string[] {
  const raw = ctx.query["channel"];
  const given = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).flatMap((value) => value.split(","));
  const channels = [...new Set(given.filter((value) => value !== ""))];
  if (channels.length === 0)
    throw new E_REALTIME_SUBSCRIPTION_INVALID("name at least one channel: ?channel=orders/42&channel=news");
  if (channels.length > max)
    throw new E_REALTIME_SUBSCRIPTION_INVALID(`${channels.length} channels asked for, at most ${max} per stream`);
  return channels;
}

/** The endpoint's middleware. */
export function eventsEndpoint(state: EndpointState): Middleware {
  const { settings, hub, rate, streams } = state;
  return async (ctx, next) => {
    if (ctx.path !== state.path || ctx.method !== "GET") return next();
    const channels = channelsOf(ctx, settings.maxChannels);
    if (isDraining()) {
      ctx.set("Retry-After", "1");
      throw new E_REALTIME_FULL("it is shutting down");
    }
    if (state.open() >= settings.maxConnections) {
      ctx.set("Retry-After", "5");
      state.logger.warn(
        { max: settings.maxConnections, code: "E_REALTIME_FULL" },
        "realtime stream refused: node full",
      );
      throw new E_REALTIME_FULL(`${settings.maxConnections} streams are open`);
    }
    const wait = rate.take(ctx.ip, channels.length);
    if (wait > 0) {
      ctx.set("Retry-After", String(wait));
      throw new E_REALTIME_RATE_LIMITED(wait);
    }
    const matches = [];
    for (const channel of channels) matches.push(await authorizeChannel(ctx, settings.channels, channel, "sse"));
    const header =
      ctx.get("Last-Event-ID") || (typeof ctx.query["lastEventId"] === "string" ? ctx.query["lastEventId"] : "");
    const resume = parseStreamId(header || undefined, channels.length);
    const res = ctx.res;
    let stream: EventStream | undefined;
    const subscription = await hub.subscribe(channels, resume, {
      message: (index, message) => stream?.message(index, message),
      reset: (index, channel) => stream?.reset(index, channel),
    });
    // Presence channels: this stream joins (after subscribing, so it hears every join and leave
    // after the members it is given) and leaves when it closes.
    const present: Array<{ index: number; handle: PresenceHandle }> = [];
    const leave = () => {
      for (const { handle } of present) handle.leave();
    };
    try {
      for (const [index, match] of matches.entries())
        if (match.member) present.push({ index, handle: await hub.join(channels[index]!, match.member) });
    } catch (error) {
      leave();
      subscription.close();
      throw error;
    }
    if (ctx.req.destroyed) {
      leave();
      subscription.close();
      return;
    }
    // Koa answers no more: the stream is written here until the client or the server ends it.
    ctx.respond = false;
    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      // no-transform: proxies and CDNs neither compress nor buffer it; X-Accel-Buffering: nginx too.
      "Cache-Control": "no-cache, no-transform",
      "X-Accel-Buffering": "no",
      Connection: "keep-alive",
    });
    ctx.req.socket.setNoDelay(true);
    ctx.req.socket.setTimeout(0);
    stream = new EventStream(
      res,
      channels,
      channels.map(() => "0-0"),
      settings.maxBuffered,
      {
        ...state.events,
        closed: (closing) => {
          subscription.close();
          leave();
          state.events.closed(closing);
        },
      },
    );
    streams.add(stream);
    state.events.sent(0);
    res.write(`retry: ${settings.retryMs}\n\n`);
    stream.ready(subscription.positions);
    for (const { index, handle } of present) stream.members(channels[index]!, handle.members);
    subscription.start();
  };
}

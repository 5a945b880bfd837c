/**
 * One WebSocket connection: its subscriptions (each authorised on its own, resumable from a last
 * id), the messages it sends to channels (routed to the channel's `receive`), and what it writes,
 * bounded: a client whose unsent bytes pass `maxBuffered` is dropped, never buffered without end.
 */
import type { Context } from "koa";
import type { WebSocket } from "ws";
import { currentUserSlot } from "@fwkit/koa-host/plugin";
import { authorizeChannel, type MatchedChannel } from "../authorize.js";
import type { StoredMessage } from "../backends/types.js";
import type { RealtimeSettings } from "../config.js";
import {
  E_REALTIME_MESSAGE_INVALID,
  E_REALTIME_NOT_SUBSCRIBED,
  E_REALTIME_RATE_LIMITED,
  E_REALTIME_SUBSCRIPTION_INVALID,
} from "../errors.js";
import type { PresenceHandle, RealtimeHub, Subscription } from "../hub.js";
import type { SubscribeRate } from "../rate.js";
import { receiveMessage } from "../receive.js";
import { parseClientFrame, type ClientFrame } from "./protocol.js";

/** What a connection reports to its node. */
export interface SocketEvents {
  sent(count: number): void;
  dropped(connection: SocketConnection): void;
  closed(connection: SocketConnection): void;
}

/** What a connection shares with its node. */
export interface SocketShared {
  readonly settings: RealtimeSettings;
  readonly hub: RealtimeHub;
  readonly rate: SubscribeRate;
  readonly events: SocketEvents;
}

interface Joined {
  readonly match: MatchedChannel;
  subscription: Subscription | undefined;
  /** On a presence channel, this connection's place among its members. */
  presence?: PresenceHandle;
}

/** An error's code, status and message as an error frame shows them (a 5xx's details stay in the log). */
function describeError(error: unknown): { code: string; status: number; message: string } {
  const { code, status, message } = error as { code?: unknown; status?: unknown; message?: unknown };
  const known = typeof code === "string" && typeof status === "number" && status < 500;
  if (known) return { code, status, message: String(message) };
  return { code: "E_REALTIME_HANDLER_FAILED", status: 500, message: "The channel's handler failed; it was logged." };
}

/** An open WebSocket. */
export class SocketConnection {
  lastWrite = Date.now();
  private readonly joined = new Map<string, Joined>();
  private ended = false;
  /** Frames are handled one after the other, so a subscribe finishes before the next frame. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly socket: WebSocket,
    private readonly ctx: Context,
    private readonly shared: SocketShared,
  ) {
    socket.on("message", (data, isBinary) => {
      this.queue = this.queue.then(() => this.onFrame(isBinary ? undefined : String(data)));
    });
    socket.on("close", () => this.finish());
    socket.on("error", () => this.finish());
  }

  /** True once the connection is over. */
  get closed(): boolean {
    return this.ended;
  }

  /** A ping when nothing was written for a while, so proxies keep the connection open. */
  heartbeat(now: number): void {
    if (this.ended) return;
    this.lastWrite = now;
    this.socket.ping();
  }

  /** Closes with `code` (1012 at a restart, 1001 when the app stops): the client reconnects and resumes. */
  end(code: number, reason: string): void {
    if (this.ended) return;
    this.socket.close(code, reason);
    this.finish();
  }

  private async onFrame(text: string | undefined): Promise<void> {
    if (this.ended) return;
    let frame: ClientFrame | undefined;
    try {
      if (text === undefined) throw new E_REALTIME_MESSAGE_INVALID("binary frames are not taken, send JSON text");
      frame = parseClientFrame(text);
      if (frame.type === "subscribe") await this.subscribe(frame.channel, frame.lastId);
      else if (frame.type === "unsubscribe") this.unsubscribe(frame.channel);
      else await this.receive(frame);
    } catch (error) {
      const { code, status, message } = describeError(error);
      if (status >= 500) this.ctx.log?.error?.({ err: error, channel: frame?.channel }, "realtime handler failed");
      const ref = frame?.type === "message" ? frame.ref : undefined;
      this.send({ type: "error", code, status, message, channel: frame?.channel, ref });
    }
  }

  private async subscribe(channel: string, lastId: string | undefined): Promise<void> {
    const { settings, hub, rate } = this.shared;
    if (this.joined.has(channel))
      throw new E_REALTIME_SUBSCRIPTION_INVALID(`already subscribed to "${channel.slice(0, 120)}"`);
    if (this.joined.size >= settings.maxChannels)
      throw new E_REALTIME_SUBSCRIPTION_INVALID(`at most ${settings.maxChannels} channels per connection`);
    const wait = rate.take(this.ctx.ip, 1);
    if (wait > 0) throw new E_REALTIME_RATE_LIMITED(wait);
    const match = await authorizeChannel(this.ctx, settings.channels, channel, "websocket");
    const joined: Joined = { match, subscription: undefined };
    this.joined.set(channel, joined);
    try {
      joined.subscription = await hub.subscribe([channel], lastId === undefined ? undefined : [lastId], {
        message: (_index, message) => this.event(message),
        reset: () => this.send({ type: "reset", channel }),
      });
    } catch (error) {
      this.joined.delete(channel);
      throw error;
    }
    // A presence channel: joined after subscribing, so every join and leave after the members given is heard.
    if (match.member)
      try {
        joined.presence = await hub.join(channel, match.member);
      } catch (error) {
        this.joined.delete(channel);
        joined.subscription.close();
        throw error;
      }
    if (this.ended || this.joined.get(channel) !== joined) {
      joined.subscription.close();
      joined.presence?.leave();
      return;
    }
    const members = joined.presence ? { members: joined.presence.members } : {};
    this.send({ type: "subscribed", channel, id: joined.subscription.positions[0], ...members });
    joined.subscription.start();
  }

  private unsubscribe(channel: string): void {
    const joined = this.joined.get(channel);
    if (!joined) throw new E_REALTIME_NOT_SUBSCRIBED(channel);
    this.joined.delete(channel);
    joined.subscription?.close();
    joined.presence?.leave();
    this.send({ type: "unsubscribed", channel });
  }

  private async receive(frame: Extract<ClientFrame, { type: "message" }>): Promise<void> {
    const joined = this.joined.get(frame.channel);
    if (!joined?.subscription) throw new E_REALTIME_NOT_SUBSCRIBED(frame.channel);
    const receiver = joined.match.pattern.definition.receive;
    if (!receiver)
      throw new E_REALTIME_MESSAGE_INVALID(`the channel "${frame.channel}" takes no messages from clients`);
    const { channel, event, data, ref } = frame;
    const reply = await receiveMessage(receiver, data, {
      user: currentUserSlot.get(this.ctx) ?? undefined,
      params: joined.match.params,
      channel,
      event,
      ctx: this.ctx,
      broadcast: (name, payload) => this.shared.hub.broadcast(channel, name, payload),
    });
    this.send({ type: "reply", channel, event, ref, data: reply ?? null });
  }

  private event(message: StoredMessage): void {
    // The payload is JSON already: written as it is, not parsed and serialised again.
    this.write(
      `{"type":"event","channel":${JSON.stringify(message.channel)},"event":${JSON.stringify(message.event)},"id":${JSON.stringify(message.id)},"data":${message.data}}`,
    );
    this.shared.events.sent(1);
  }

  private send(frame: Record<string, unknown>): void {
    this.write(JSON.stringify(frame));
  }

  private write(text: string): void {
    if (this.ended) return;
    this.lastWrite = Date.now();
    this.socket.send(text);
    // What the socket could not send yet waits in the process: past the bound, the client does not read.
    if (this.socket.bufferedAmount > this.shared.settings.maxBuffered) {
      this.shared.events.dropped(this);
      this.socket.terminate();
      this.finish();
    }
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    for (const joined of this.joined.values()) {
      joined.subscription?.close();
      joined.presence?.leave();
    }
    this.joined.clear();
    this.shared.events.closed(this);
  }
}

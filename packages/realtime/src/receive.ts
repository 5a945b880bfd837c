/**
 * Messages a WebSocket client sends to a channel, routed to the channel's `receive` handler: the
 * one rule both frameworks follow. A handler is either a class extending {@link ChannelHandler}
 * whose methods are the events it takes (one instance per message, as a view gets one per
 * request: fw-a's idiom), or a plain object of functions by event name (fw-b's dict-first idiom).
 * What a handler returns is sent back to the sender as the message's reply; what it throws with a
 * 4xx status is the reply's error, anything else a logged 500 without details.
 */
import type { Context } from "koa";
import { E_REALTIME_MESSAGE_INVALID } from "./errors.js";

/** What a handler gets with each message. */
export interface ReceiveInput<User = unknown> {
  /** The logged-in user of the connection (from the handshake's session), or undefined. */
  readonly user: User | undefined;
  /** The values of the channel pattern's `:name` segments. */
  readonly params: Readonly<Record<string, string>>;
  /** The channel's name (`rooms/7`). */
  readonly channel: string;
  /** The event the client named (`say`). */
  readonly event: string;
  /** The handshake's request context (its session, its headers). */
  readonly ctx: Context;
  /** Broadcasts on this channel, to every subscriber on every node (the sender too). */
  broadcast(event: string, data: unknown): Promise<string>;
}

/**
 * The class-based handler: each public method is an event clients may send (`say(data)`), called
 * on a new instance per message with the message's {@link ReceiveInput} as `this.input`.
 */
export class ChannelHandler<User = unknown> {
  /** The message's user, channel, params and a broadcast to its channel. */
  readonly input: ReceiveInput<User>;

  constructor(input: ReceiveInput<User>) {
    this.input = input;
  }
}

/** A dict-first handler: an event name to a function of the message's data and input. */
export type ChannelHandlers<User = unknown> = Readonly<
  Record<string, (data: unknown, input: ReceiveInput<User>) => unknown>
>;

/** What a channel's `receive` may be. */
export type ChannelReceiver<User = unknown> =
  | (new (
      input: ReceiveInput<User>,
    ) => ChannelHandler<User>)
  | ChannelHandlers<User>;

const EVENT = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

/** True when `value` is a class extending {@link ChannelHandler}. */
function isHandlerClass(value: ChannelReceiver): value is new (input: ReceiveInput) => ChannelHandler {
  return typeof value === "function" && value.prototype instanceof ChannelHandler;
}

/** The events a receiver takes (its public methods or functions), for the start-up check and errors. */
export function receiverEvents(receiver: ChannelReceiver): string[] {
  if (!isHandlerClass(receiver)) return Object.keys(receiver).filter((name) => typeof receiver[name] === "function");
  const names = new Set<string>();
  for (
    let proto = receiver.prototype;
    proto && proto !== ChannelHandler.prototype;
    proto = Object.getPrototypeOf(proto)
  )
    for (const name of Object.getOwnPropertyNames(proto))
      if (name !== "constructor" && !name.startsWith("_") && typeof proto[name] === "function") names.add(name);
  return [...names];
}

/** True for a `receive` value a channel may declare. */
export function isReceiver(value: unknown): value is ChannelReceiver {
  if (isHandlerClass(value as ChannelReceiver)) return true;
  return (
    typeof value === "object" &&
    value !== null &&
    Object.values(value).length > 0 &&
    Object.values(value).every((entry) => typeof entry === "function")
  );
}

/**
 * Runs the handler of `input.event` with `data`; resolves with what it returned.
 * `E_REALTIME_MESSAGE_INVALID` when the channel takes no such event.
 */
export async function receiveMessage(receiver: ChannelReceiver, data: unknown, input: ReceiveInput): Promise<unknown> {
  const { event } = input;
  const known = receiverEvents(receiver);
  if (!EVENT.test(event) || !known.includes(event))
    throw new E_REALTIME_MESSAGE_INVALID(
      `the channel "${input.channel}" takes no event "${event.slice(0, 64)}" (it takes: ${known.join(", ") || "none"})`,
    );
  if (isHandlerClass(receiver)) {
    const instance = new receiver(input) as unknown as Record<string, (data: unknown) => unknown>;
    return await instance[event]!(data);
  }
  return await receiver[event]!(data, input);
}

/**
 * Errors raised by the realtime battery. What a client controls (a channel name, a subscription it
 * may not have, too many streams) is a 4xx or 503 with a code; start-up ones name the config key.
 */
import { createError } from "routing-kernel";

/** `realtimeUrl` (`REALTIME_URL`) is not a URL the battery knows. */
export const E_REALTIME_URL_INVALID = createError(
  "E_REALTIME_URL_INVALID",
  500,
  (url: string, reason: string) =>
    `The realtime URL "${url}" is invalid: ${reason}. Set REALTIME_URL (or realtimeUrl in config) to memory: (one process) or redis://host:6379/0 (every worker and node).`,
);

/** A key of the `realtime` block has a wrong value. */
export const E_REALTIME_OPTION_INVALID = createError(
  "E_REALTIME_OPTION_INVALID",
  500,
  (key: string, expected: string, value: unknown) =>
    `The config key "${key}" is invalid: it must be ${expected} (got ${describe(value)}).`,
);

/** A channel name (or pattern) that is not segments of letters, digits and `_ . -` joined by `/`. */
export const E_REALTIME_CHANNEL_INVALID = createError(
  "E_REALTIME_CHANNEL_INVALID",
  400,
  (channel: string) =>
    `The channel name "${channel.slice(0, 120)}" is invalid: use segments of letters, digits and _ . - joined by / (orders/42), at most 200 characters.`,
);

/** A channel no pattern of `realtime.channels` declares. */
export const E_REALTIME_CHANNEL_UNKNOWN = createError(
  "E_REALTIME_CHANNEL_UNKNOWN",
  404,
  (channel: string, known: readonly string[]) =>
    `No channel pattern matches "${channel.slice(0, 120)}" (declared: ${known.join(", ") || "none"}). Declare it under realtime.channels in config.`,
);

/** The channel's `authorize` refused the subscription (or it is private and no one is logged in). */
export const E_REALTIME_FORBIDDEN = createError(
  "E_REALTIME_FORBIDDEN",
  403,
  (channel: string) => `You may not subscribe to the channel "${channel.slice(0, 120)}".`,
);

/** A subscription asked for more channels than `realtime.maxChannels`, or none. */
export const E_REALTIME_SUBSCRIPTION_INVALID = createError(
  "E_REALTIME_SUBSCRIPTION_INVALID",
  400,
  (reason: string) => `The subscription is invalid: ${reason}.`,
);

/** This process serves `realtime.maxConnections` streams already (or is shutting down). */
export const E_REALTIME_FULL = createError(
  "E_REALTIME_FULL",
  503,
  (why: string) => `This server accepts no more event streams now (${why}); reconnect in a moment.`,
);

/** A client subscribed more often than `realtime.subscribeRate` allows. */
export const E_REALTIME_RATE_LIMITED = createError(
  "E_REALTIME_RATE_LIMITED",
  429,
  (seconds: number) => `Too many subscriptions from this client; try again in ${seconds} s.`,
);

/** A broadcast whose JSON text is larger than `realtime.maxMessageSize`. */
export const E_REALTIME_MESSAGE_TOO_LARGE = createError(
  "E_REALTIME_MESSAGE_TOO_LARGE",
  413,
  (channel: string, size: number, max: number) =>
    `The broadcast to "${channel}" is ${size} bytes of JSON, over realtime.maxMessageSize (${max}). Send an id and let clients fetch the rest, or raise the limit.`,
);

/** A broadcast whose payload is not JSON, or that its channel's schema refuses, or whose event name is wrong. */
export const E_REALTIME_PAYLOAD_INVALID = createError(
  "E_REALTIME_PAYLOAD_INVALID",
  422,
  (channel: string, reason: string) => `The broadcast to "${channel}" was refused: ${reason}.`,
);

/** A WebSocket client's message that is not JSON, names an unknown type or event, or lacks a field. */
export const E_REALTIME_MESSAGE_INVALID = createError(
  "E_REALTIME_MESSAGE_INVALID",
  400,
  (reason: string) =>
    `The message is invalid: ${reason}. See docs/realtime.md, "WebSockets", for the messages a client sends.`,
);

/** A WebSocket handshake whose Origin is neither the app's own nor one of `realtime.allowedOrigins`. */
export const E_REALTIME_ORIGIN_REFUSED = createError(
  "E_REALTIME_ORIGIN_REFUSED",
  403,
  (origin: string) =>
    `The WebSocket handshake from the origin "${origin.slice(0, 120)}" was refused: only the app's own origin may connect. List another origin under realtime.allowedOrigins in config.`,
);

/** A WebSocket message to a channel the connection has not subscribed to. */
export const E_REALTIME_NOT_SUBSCRIBED = createError(
  "E_REALTIME_NOT_SUBSCRIBED",
  409,
  (channel: string) => `Subscribe to the channel "${channel.slice(0, 120)}" before sending to it.`,
);

/** `broadcast()` in a process where the realtime battery is not set up. */
export const E_REALTIME_OFF = createError(
  "E_REALTIME_OFF",
  500,
  () =>
    "broadcast() was called but realtime is off in this process. Declare realtime.channels in config (and REALTIME_URL=redis://... when the app runs on more than one process).",
);

/** The backend (Redis) did not answer a broadcast or a subscription. */
export const E_REALTIME_UNAVAILABLE = createError(
  "E_REALTIME_UNAVAILABLE",
  503,
  (reason: string) => `Realtime is unavailable: ${reason}. Try again in a moment.`,
);

/** `client.realtime` of an app whose realtime battery is off. */
export const E_TEST_REALTIME_UNAVAILABLE = createError(
  "E_TEST_REALTIME_UNAVAILABLE",
  500,
  () =>
    "client.realtime cannot read the app's broadcasts: realtime is off. Declare realtime.channels in the test's config and keep the realtime battery on.",
);

function describe(value: unknown): string {
  if (typeof value === "function") return "a function";
  try {
    return JSON.stringify(value)?.slice(0, 80) ?? String(value);
  } catch {
    return String(value);
  }
}

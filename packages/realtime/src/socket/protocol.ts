/**
 * The WebSocket protocol: JSON text frames. What a client sends (`subscribe`, `unsubscribe`,
 * `message`) is parsed and checked here, so a wrong frame becomes an `error` frame naming what is
 * wrong, never a crash; the close codes the server uses are named once.
 */
import { E_REALTIME_MESSAGE_INVALID } from "../errors.js";
import { isMessageId } from "../ids.js";

/** Close codes the server sends (docs/realtime.md, "WebSockets"). */
export const CLOSE_CODES = Object.freeze({
  /** The server is closing (the app stops): reconnect, to another node. */
  goingAway: 1001,
  /** A frame larger than `realtime.maxMessageSize` (sent by `ws` itself). */
  tooLarge: 1009,
  /** The process is restarting (shutdown, rolling restart): reconnect and resume. */
  restart: 1012,
});

/** A client's frame, checked. */
export type ClientFrame =
  | { readonly type: "subscribe"; readonly channel: string; readonly lastId: string | undefined }
  | { readonly type: "unsubscribe"; readonly channel: string }
  | {
      readonly type: "message";
      readonly channel: string;
      readonly event: string;
      readonly data: unknown;
      readonly ref: string | number | undefined;
    };

const TYPES = ["subscribe", "unsubscribe", "message"];

/** Parses one text frame; `E_REALTIME_MESSAGE_INVALID` naming what is wrong. */
export function parseClientFrame(text: string): ClientFrame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new E_REALTIME_MESSAGE_INVALID("it is not JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new E_REALTIME_MESSAGE_INVALID('it must be a JSON object such as {"type":"subscribe","channel":"news"}');
  const frame = value as Record<string, unknown>;
  const { channel } = frame;
  const type = frame["type"] as ClientFrame["type"];
  if (typeof type !== "string" || !TYPES.includes(type))
    throw new E_REALTIME_MESSAGE_INVALID(
      `the type must be one of ${TYPES.join(", ")} (got ${JSON.stringify(type)?.slice(0, 40)})`,
    );
  if (typeof channel !== "string") throw new E_REALTIME_MESSAGE_INVALID(`a ${type} message names its "channel"`);
  if (type === "subscribe") {
    const { lastId } = frame;
    if (lastId !== undefined && (typeof lastId !== "string" || !isMessageId(lastId)))
      throw new E_REALTIME_MESSAGE_INVALID('"lastId" must be the id of an event the client received (1733480000000-0)');
    return { type, channel, lastId };
  }
  if (type === "unsubscribe") return { type, channel };
  const { event, ref } = frame;
  if (typeof event !== "string") throw new E_REALTIME_MESSAGE_INVALID('a message names its "event"');
  if (ref !== undefined && typeof ref !== "number" && (typeof ref !== "string" || ref.length > 64))
    throw new E_REALTIME_MESSAGE_INVALID('"ref" must be a number or a string of at most 64 characters');
  return { type, channel, event, data: frame["data"], ref };
}

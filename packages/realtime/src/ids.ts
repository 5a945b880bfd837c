/**
 * Message ids, the same in both backends: `<milliseconds>-<sequence>` as Redis Streams write them,
 * increasing per channel. A stream's SSE id lists one such id per subscribed channel, in the order
 * the channels were asked for (`1733480000000-0,0-0`), so `Last-Event-ID` resumes each of them.
 */

/** The id before any message. */
export const ZERO_ID = "0-0";

const ID = /^(\d{1,16})-(\d{1,16})$/;

/** True for a well-formed id. */
export function isMessageId(value: string): boolean {
  return ID.test(value);
}

/** Orders two ids: negative when `a` comes first. */
export function compareIds(a: string, b: string): number {
  const [am = "0", as = "0"] = a.split("-");
  const [bm = "0", bs = "0"] = b.split("-");
  return Number(am) - Number(bm) || Number(as) - Number(bs);
}

/** The SSE id of a stream's position: one message id per channel, joined by commas. */
export function streamId(positions: readonly string[]): string {
  return positions.join(",");
}

/**
 * The positions a `Last-Event-ID` gives for `count` channels, or undefined when it is absent or is
 * not one this stream wrote (another channel list): the stream then starts from now.
 */
export function parseStreamId(header: string | undefined, count: number): string[] | undefined {
  if (header === undefined || header === "" || header.length > 40 * count) return undefined;
  const parts = header.split(",");
  if (parts.length !== count || !parts.every(isMessageId)) return undefined;
  return parts;
}

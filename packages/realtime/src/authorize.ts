/**
 * One channel's subscription check, the same for both transports: the pattern it matches, then
 * the pattern's `authorize` with the request's user (the host's `currentUser` slot, which the
 * security battery fills from the session). A refusal is logged with the channel, never a payload.
 */
import type { Context } from "koa";
import { currentUserSlot } from "@fwkit/koa-host/plugin";
import { matchChannel, type ChannelPattern, type PresenceMember } from "./channels.js";
import { E_REALTIME_FORBIDDEN, E_REALTIME_OPTION_INVALID } from "./errors.js";

/** What a channel matched: its pattern and params, and on a presence channel who subscribes. */
export interface MatchedChannel {
  readonly pattern: ChannelPattern;
  readonly params: Record<string, string>;
  readonly member?: PresenceMember;
}

/** True for a member's info: an object whose id is a string or a finite number. */
function isMember(value: unknown): value is PresenceMember {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { id } = value as { id?: unknown };
  return (typeof id === "string" && id !== "" && id.length <= 200) || (typeof id === "number" && Number.isFinite(id));
}

/**
 * Checks that the request of `ctx` may subscribe to `channel`; resolves with the match, throws
 * `E_REALTIME_CHANNEL_UNKNOWN`/`_INVALID` for a channel no pattern declares and
 * `E_REALTIME_FORBIDDEN` when its `authorize` says no.
 */
export async function authorizeChannel(
  ctx: Context,
  patterns: readonly ChannelPattern[],
  channel: string,
  transport: "sse" | "websocket",
): Promise<MatchedChannel> {
  const { pattern, params } = matchChannel(patterns, channel);
  const { authorize: allowed } = pattern.definition;
  if (!allowed) return { pattern, params };
  const user = currentUserSlot.get(ctx) ?? undefined;
  const answer = await allowed({ user, params, channel, ctx });
  if (pattern.definition.presence && answer) {
    if (!isMember(answer))
      throw new E_REALTIME_OPTION_INVALID(
        `realtime.channels["${pattern.pattern}"].authorize`,
        "the member's info, an object with an id ({ id: user.id, name: user.name }), or false",
        answer,
      );
    return { pattern, params, member: answer };
  }
  if (answer) return { pattern, params };
  ctx.log?.warn?.(
    { channel, pattern: pattern.pattern, transport, code: "E_REALTIME_FORBIDDEN" },
    "realtime subscription refused",
  );
  throw new E_REALTIME_FORBIDDEN(channel);
}

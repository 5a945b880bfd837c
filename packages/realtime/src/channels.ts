/**
 * Channel names and the patterns that declare them. A name is segments of letters, digits and
 * `_ . -` joined by `/` (`orders/42`); a pattern may hold `:name` segments (`orders/:id`) whose
 * values the channel's `authorize` receives as params. Every channel subscribed to or broadcast on
 * must match a declared pattern: a typo is an error, never a silent channel no one hears.
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { Context } from "koa";
import { E_REALTIME_CHANNEL_INVALID, E_REALTIME_CHANNEL_UNKNOWN, E_REALTIME_OPTION_INVALID } from "./errors.js";
import { isReceiver, type ChannelReceiver } from "./receive.js";

/** What a private channel's `authorize` gets. */
export interface AuthorizeInput<User = unknown> {
  /** The logged-in user (`ctx.state.currentUser`), or undefined. */
  readonly user: User | undefined;
  /** The values of the pattern's `:name` segments (`{ id: "42" }` for `orders/42`). */
  readonly params: Readonly<Record<string, string>>;
  /** The channel's name (`orders/42`). */
  readonly channel: string;
  /** The subscribing request. */
  readonly ctx: Context;
}

/** A presence channel's member as its `authorize` returns it: an `id` and what others may see. */
export interface PresenceMember {
  /** Who it is: connections with the same id are one member (a user in two tabs). */
  readonly id: string | number;
  readonly [field: string]: unknown;
}

/** What `authorize` may answer: yes or no, or for a presence channel the member's public info. */
export type AuthorizeResult = boolean | PresenceMember | null | undefined;

/** One channel pattern's declaration: `public: true`, or an `authorize` callback. */
export interface ChannelDefinition<User = unknown> {
  /** Anyone may subscribe (a public channel is declared so, never by default). */
  readonly public?: boolean;
  /**
   * Who may subscribe to a private channel: true lets the subscription through; on a presence
   * channel it answers the member's public info (`{ id, name }`), or false.
   */
  readonly authorize?: (input: AuthorizeInput<User>) => AuthorizeResult | Promise<AuthorizeResult>;
  /** Subscribers see who else is here: the members, and `presence:join` / `presence:leave` events. */
  readonly presence?: boolean;
  /** The payload's Standard Schema (zod, valibot, arktype), checked at broadcast. */
  readonly schema?: StandardSchemaV1;
  /**
   * What WebSocket clients subscribed to the channel may send it: a class extending
   * `ChannelHandler` whose methods are the events, or an object of functions by event name.
   */
  readonly receive?: ChannelReceiver<User>;
}

/** A declared pattern, compiled. */
export interface ChannelPattern {
  readonly pattern: string;
  readonly definition: ChannelDefinition;
  readonly segments: readonly string[];
}

const SEGMENT = /^[A-Za-z0-9_.-]+$/;
const PARAM = /^:[A-Za-z_][A-Za-z0-9_]*$/;
const DEFINITION_KEYS = ["public", "authorize", "presence", "schema", "receive"];

/** Checks a channel name; throws `E_REALTIME_CHANNEL_INVALID` (400). */
export function checkChannelName(channel: unknown): string {
  if (typeof channel !== "string" || channel.length === 0 || channel.length > 200)
    throw new E_REALTIME_CHANNEL_INVALID(String(channel));
  if (!channel.split("/").every((segment) => SEGMENT.test(segment))) throw new E_REALTIME_CHANNEL_INVALID(channel);
  return channel;
}

/** Compiles `realtime.channels`; a malformed pattern or definition stops the start naming it. */
export function compileChannels(channels: unknown): ChannelPattern[] {
  const key = "realtime.channels";
  if (typeof channels !== "object" || channels === null || Array.isArray(channels))
    throw new E_REALTIME_OPTION_INVALID(key, 'a block { "pattern": { public: true } | { authorize } }', channels);
  return Object.entries(channels as Record<string, unknown>).map(([pattern, value]) => {
    const where = `${key}["${pattern}"]`;
    const segments = pattern.split("/");
    if (pattern.length > 200 || !segments.every((segment) => SEGMENT.test(segment) || PARAM.test(segment)))
      throw new E_REALTIME_OPTION_INVALID(where, "a pattern of segments and :params joined by / (orders/:id)", pattern);
    if (typeof value !== "object" || value === null)
      throw new E_REALTIME_OPTION_INVALID(where, "{ public: true } or { authorize(input) { ... } }", value);
    const definition = value as ChannelDefinition;
    const unknown = Object.keys(definition).filter((name) => !DEFINITION_KEYS.includes(name));
    if (unknown.length > 0)
      throw new E_REALTIME_OPTION_INVALID(`${where}.${unknown[0]}`, `one of ${DEFINITION_KEYS.join(", ")}`, unknown[0]);
    const isPublic = definition.public === true;
    const hasAuthorize = typeof definition.authorize === "function";
    // A channel is public only when it says so; a private one needs the callback that decides.
    if (isPublic === hasAuthorize)
      throw new E_REALTIME_OPTION_INVALID(where, "either public: true or an authorize function (not both)", value);
    // A member is who authorize says it is: a presence channel is a private one.
    if (
      definition.presence !== undefined &&
      (typeof definition.presence !== "boolean" || (definition.presence && isPublic))
    )
      throw new E_REALTIME_OPTION_INVALID(
        `${where}.presence`,
        "true on a channel with an authorize function that answers the member's info",
        definition.presence,
      );
    if (definition.schema !== undefined && typeof definition.schema?.["~standard"]?.validate !== "function")
      throw new E_REALTIME_OPTION_INVALID(
        `${where}.schema`,
        "a Standard Schema (zod, valibot, arktype)",
        definition.schema,
      );
    if (definition.receive !== undefined && !isReceiver(definition.receive))
      throw new E_REALTIME_OPTION_INVALID(
        `${where}.receive`,
        "a class extending ChannelHandler, or an object of functions by event name",
        definition.receive,
      );
    return { pattern, definition, segments };
  });
}

/** The pattern a channel matches and its params; `E_REALTIME_CHANNEL_UNKNOWN` (404) when none does. */
export function matchChannel(
  patterns: readonly ChannelPattern[],
  channel: string,
): { pattern: ChannelPattern; params: Record<string, string> } {
  const parts = checkChannelName(channel).split("/");
  for (const pattern of patterns) {
    if (pattern.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const fits = pattern.segments.every((segment, at) => {
      if (segment.startsWith(":")) {
        params[segment.slice(1)] = parts[at]!;
        return true;
      }
      return segment === parts[at];
    });
    if (fits) return { pattern, params };
  }
  throw new E_REALTIME_CHANNEL_UNKNOWN(
    channel,
    patterns.map((pattern) => pattern.pattern),
  );
}

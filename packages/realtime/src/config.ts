/**
 * The realtime battery's config: `realtimeUrl` (`REALTIME_URL`, a host key) and the `realtime`
 * block, read and checked once at start-up so a wrong value stops the app naming the key. The
 * battery is off (nothing installed, nothing connected) until `realtime.channels` declares one.
 */
import { checkOptionKeys } from "routing-kernel";
import { isPlainObject } from "@fwkit/koa-host/plugin";
import { compileChannels, type ChannelDefinition, type ChannelPattern } from "./channels.js";
import { E_REALTIME_OPTION_INVALID, E_REALTIME_URL_INVALID } from "./errors.js";

/** A duration: milliseconds, or a string such as `"15s"`, `"5m"`, `"1h"`, `"500ms"`. */
export type Duration = number | `${number}${"ms" | "s" | "m" | "h"}`;

/** The `realtime` block of an app's config (docs/realtime.md). */
export interface RealtimeConfigBlock {
  /** The channels clients may subscribe to, by pattern: `{ "news": { public: true }, "orders/:id": { authorize } }`. */
  // biome-ignore lint/suspicious/noExplicitAny: a channel's authorize sees the app's own user type
  readonly channels?: Readonly<Record<string, ChannelDefinition<any>>>;
  /** Where the event stream is served (default `"/_events"`). */
  readonly path?: string;
  /** The prefix of the Redis keys (default `"fwkit-<name>"`, from the app's package.json). */
  readonly prefix?: string;
  /** The window a reconnecting client resumes from: messages kept per channel (default 1000) and for how long (default `"5m"`). */
  readonly replay?: { readonly size?: number; readonly age?: Duration };
  /** How often an idle stream gets a comment line, so proxies keep it open (default `"15s"`). */
  readonly heartbeat?: Duration;
  /** The reconnect delay a client is told (`retry:`), also at shutdown (default `"2s"`). */
  readonly retry?: Duration;
  /** Streams this process serves at most; one more is answered 503 (default 10000). */
  readonly maxConnections?: number;
  /** Channels one stream may subscribe to (default 20). */
  readonly maxChannels?: number;
  /** Subscriptions (channels) one client address may open per window (default 120 per `"1m"`). */
  readonly subscribeRate?: { readonly limit?: number; readonly window?: Duration };
  /** The largest broadcast, in bytes of JSON (default 65536). */
  readonly maxMessageSize?: number;
  /** Bytes waiting for a slow client before its stream is dropped (default 262144). */
  readonly maxBuffered?: number;
}

/** The config keys the realtime battery reads, for the host's start-up check of unknown keys. */
export const REALTIME_CONFIG_KEYS = Object.freeze({
  realtimeUrl: true,
  realtime: Object.freeze({
    // Checked by compileChannels: the keys are the app's patterns.
    channels: true,
    path: true,
    prefix: true,
    replay: Object.freeze({ size: true, age: true }),
    heartbeat: true,
    retry: true,
    maxConnections: true,
    maxChannels: true,
    subscribeRate: Object.freeze({ limit: true, window: true }),
    maxMessageSize: true,
    maxBuffered: true,
  }),
} as const);

/** The checked settings. */
export interface RealtimeSettings {
  readonly url: string;
  readonly kind: "memory" | "redis";
  readonly channels: readonly ChannelPattern[];
  readonly path: string;
  readonly prefix: string | undefined;
  readonly replaySize: number;
  readonly replayAgeMs: number;
  readonly heartbeatMs: number;
  readonly retryMs: number;
  readonly maxConnections: number;
  readonly maxChannels: number;
  readonly rateLimit: number;
  readonly rateWindowMs: number;
  readonly maxMessageSize: number;
  readonly maxBuffered: number;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A {@link Duration} in ms; `E_REALTIME_OPTION_INVALID` naming the key otherwise. */
export function durationMs(value: unknown, key: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === "number" && Number.isFinite(value) && value > 0) return value;
  const match = typeof value === "string" ? /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(value.trim()) : null;
  if (match && Number(match[1]) > 0) return Number(match[1]) * UNITS[match[2]!]!;
  throw new E_REALTIME_OPTION_INVALID(key, 'a duration such as "15s", "5m" or a number of ms', value);
}

function whole(value: unknown, key: string, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min)
    throw new E_REALTIME_OPTION_INVALID(key, `a whole number of at least ${min}`, value);
  return value;
}

/** Checks a realtime URL: `memory:` or `redis://` / `rediss://`. */
export function parseRealtimeUrl(url: string): "memory" | "redis" {
  if (url === "memory:") return "memory";
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new E_REALTIME_URL_INVALID(url, "it is not a URL");
  }
  if (parsed.protocol === "redis:" || parsed.protocol === "rediss:") return "redis";
  throw new E_REALTIME_URL_INVALID(url, `the scheme ${parsed.protocol} is not one the battery knows`);
}

/**
 * Reads and checks `realtimeUrl` and the `realtime` block; undefined when no channel is declared
 * (the battery stays off). A wrong value is a coded error naming the key.
 */
export function readRealtimeConfig(appConfig: object): RealtimeSettings | undefined {
  const config = appConfig as Readonly<Record<string, unknown>>;
  const url = config["realtimeUrl"];
  if (url !== undefined && url !== "" && typeof url !== "string")
    throw new E_REALTIME_OPTION_INVALID("realtimeUrl", "a URL such as memory: or redis://127.0.0.1:6379/0", url);
  if (typeof url === "string" && url !== "") parseRealtimeUrl(url);
  const block = config["realtime"];
  if (block === undefined) return undefined;
  if (!isPlainObject(block))
    throw new E_REALTIME_OPTION_INVALID("realtime", "a block of the realtime battery's keys", block);
  const given = block as RealtimeConfigBlock;
  checkOptionKeys("config realtime", given, Object.keys(REALTIME_CONFIG_KEYS.realtime));
  if (given.channels === undefined) return undefined;
  const channels = compileChannels(given.channels);
  if (channels.length === 0) return undefined;
  const path = given.path ?? "/_events";
  if (typeof path !== "string" || !/^\/[A-Za-z0-9_./-]*$/.test(path))
    throw new E_REALTIME_OPTION_INVALID("realtime.path", "a path such as /_events", path);
  if (given.prefix !== undefined && (typeof given.prefix !== "string" || !/^[A-Za-z0-9_.:-]{1,50}$/.test(given.prefix)))
    throw new E_REALTIME_OPTION_INVALID("realtime.prefix", "letters, digits and _ . : - (at most 50)", given.prefix);
  for (const key of ["replay", "subscribeRate"] as const)
    if (given[key] !== undefined && !isPlainObject(given[key]))
      throw new E_REALTIME_OPTION_INVALID(`realtime.${key}`, "a block", given[key]);
  const chosen = typeof url === "string" && url !== "" ? url : "memory:";
  return {
    url: chosen,
    kind: parseRealtimeUrl(chosen),
    channels,
    path,
    prefix: given.prefix,
    replaySize: whole(given.replay?.size, "realtime.replay.size", 1000),
    replayAgeMs: durationMs(given.replay?.age, "realtime.replay.age", 300_000),
    heartbeatMs: durationMs(given.heartbeat, "realtime.heartbeat", 15_000),
    retryMs: durationMs(given.retry, "realtime.retry", 2000),
    maxConnections: whole(given.maxConnections, "realtime.maxConnections", 10_000),
    maxChannels: whole(given.maxChannels, "realtime.maxChannels", 20),
    rateLimit: whole(given.subscribeRate?.limit, "realtime.subscribeRate.limit", 120),
    rateWindowMs: durationMs(given.subscribeRate?.window, "realtime.subscribeRate.window", 60_000),
    maxMessageSize: whole(given.maxMessageSize, "realtime.maxMessageSize", 65_536, 16),
    maxBuffered: whole(given.maxBuffered, "realtime.maxBuffered", 262_144, 1024),
  };
}

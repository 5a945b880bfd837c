/**
 * The realtime battery's config: `realtimeUrl` (`REALTIME_URL`, a host key) and the `realtime`
 * block, read and checked once at start-up so a wrong value stops the app naming the key. The
 * battery is off (nothing installed, nothing connected) until `realtime.channels` declares one.
 */
import { checkOptionKeys } from "routing-kernel";
import { isPlainObject } from "@fwkit/koa-host/plugin";
import type { ResolvedOf } from "@fwkit/koa-host/config-schema";
import { compileChannels, type ChannelPattern } from "./channels.js";
import { REALTIME_BLOCK_KEYS, realtimeConfigSchema } from "./config-schema.js";
import { E_REALTIME_OPTION_INVALID, E_REALTIME_URL_INVALID } from "./errors.js";

export {
  type Duration,
  type RealtimeAppConfig,
  type RealtimeConfigBlock,
  realtimeConfigSchema,
} from "./config-schema.js";

/** The config keys the realtime battery reads, for the host's start-up check of unknown keys. */
export const REALTIME_CONFIG_KEYS = realtimeConfigSchema.configKeys;

/** The `realtime` block as its schema reads it. */
type Block = ResolvedOf<typeof realtimeConfigSchema>["realtime"];

/**
 * The checked settings: every key of the block as read (a key added to the schema is here with
 * nothing else written), with the URL, the compiled channels and the blocks and durations the
 * streams use by their own names.
 */
export interface RealtimeSettings extends Omit<Block, "channels" | "replay" | "subscribeRate" | "heartbeat" | "retry"> {
  readonly url: string;
  readonly kind: "memory" | "redis";
  readonly channels: readonly ChannelPattern[];
  readonly replaySize: number;
  readonly replayAgeMs: number;
  readonly heartbeatMs: number;
  readonly retryMs: number;
  readonly rateLimit: number;
  readonly rateWindowMs: number;
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
  checkOptionKeys("config realtime", block, Object.keys(REALTIME_BLOCK_KEYS));
  if (block["channels"] === undefined) return undefined;
  const channels = compileChannels(block["channels"] as Parameters<typeof compileChannels>[0]);
  if (channels.length === 0) return undefined;
  const {
    channels: _declared,
    replay,
    subscribeRate,
    heartbeat,
    retry,
    ...keys
  } = realtimeConfigSchema.resolveKey("realtime", config, { env: {} });
  // Nodes renew their members every third of it, on a one-second tick: shorter, members would flap.
  if (keys.presenceTtl < 3000)
    throw new E_REALTIME_OPTION_INVALID("realtime.presenceTtl", 'a duration of at least "3s"', keys.presenceTtl);
  const chosen = typeof url === "string" && url !== "" ? url : "memory:";
  return {
    ...keys,
    url: chosen,
    kind: parseRealtimeUrl(chosen),
    channels,
    replaySize: replay.size,
    replayAgeMs: replay.age,
    heartbeatMs: heartbeat,
    retryMs: retry,
    rateLimit: subscribeRate.limit,
    rateWindowMs: subscribeRate.window,
  };
}

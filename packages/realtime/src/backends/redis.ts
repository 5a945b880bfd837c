/**
 * The `redis://` backend: each channel is a Redis Stream (`<prefix>:rt:<channel>`) holding the
 * replay window, and each broadcast is also published on the pub/sub channel of the same name.
 * One Lua script adds to the stream, trims it (MAXLEN for size, MINID for age) and publishes, so
 * the order on pub/sub is the stream's order and every node hears each message once. Pub/sub
 * (not one XREAD BLOCK per node) because a node listens to a changing set of channels: SUBSCRIBE
 * changes it at once, where a blocked XREAD would have to be woken for every new channel. The
 * stream serves replay (`Last-Event-ID`) and, after a reconnect of the subscriber connection, the
 * messages the pub/sub feed missed (`resync`).
 */
import type { Redis as RedisClient, RedisOptions } from "ioredis";
import { driverLoader } from "@fwkit/battery-kit";
import { E_REALTIME_UNAVAILABLE, E_REALTIME_URL_INVALID } from "../errors.js";
import { compareIds, ZERO_ID } from "../ids.js";
import { presenceScripts } from "./redis-presence.js";
import type { BackendHandlers, RealtimeBackend, ReplayWindow, StoredMessage } from "./types.js";

const { importDriver } = driverLoader(
  import.meta.url,
  (user, name, reason) =>
    new E_REALTIME_URL_INVALID(user, `the package ${name} is needed (${reason}): npm install ${name}`),
);

// Trims a stream to its window (size, then age) and remembers the newest id it dropped (KEYS[2]):
// a client positioned before that id has missed messages no one can give it.
const TRIM = `
local function trim(key, dropped_key, max, age, now, ttl)
  local dropped = nil
  local len = redis.call('XLEN', key)
  if len > max then
    local cut = redis.call('XRANGE', key, '-', '+', 'COUNT', len - max)
    dropped = cut[#cut][1]
    local ms, seq = string.match(dropped, '(%d+)-(%d+)')
    redis.call('XTRIM', key, 'MINID', ms .. '-' .. (tonumber(seq) + 1))
  end
  local old = redis.call('XREVRANGE', key, tostring(now - age - 1), '-', 'COUNT', 1)
  if #old > 0 then
    dropped = old[1][1]
    local ms, seq = string.match(dropped, '(%d+)-(%d+)')
    redis.call('XTRIM', key, 'MINID', ms .. '-' .. (tonumber(seq) + 1))
  end
  if dropped then redis.call('SET', dropped_key, dropped, 'PX', ttl) end
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

// KEYS: the stream, its dropped id. ARGV: max length, max age ms, event, data, pub/sub channel.
const PUBLISH = `${TRIM}
local ttl = tonumber(ARGV[2]) + 60000
local id = redis.call('XADD', KEYS[1], '*', 'e', ARGV[3], 'd', ARGV[4])
trim(KEYS[1], KEYS[2], tonumber(ARGV[1]), tonumber(ARGV[2]), now, ttl)
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('PEXPIRE', KEYS[2], ttl)
redis.call('PUBLISH', ARGV[5], id .. '\\n' .. ARGV[3] .. '\\n' .. ARGV[4])
return id`;

// KEYS: the stream, its dropped id. ARGV: the id after which to read, max length, max age ms.
// Returns the newest dropped id and the entries after the position.
const SINCE = `${TRIM}
if redis.call('EXISTS', KEYS[1]) == 0 and redis.call('EXISTS', KEYS[2]) == 0 then return {'missing', {}} end
trim(KEYS[1], KEYS[2], tonumber(ARGV[2]), tonumber(ARGV[3]), now, tonumber(ARGV[3]) + 60000)
local dropped = redis.call('GET', KEYS[2]) or '0-0'
return {dropped, redis.call('XRANGE', KEYS[1], '(' .. ARGV[1], '+')}`;

// KEYS: the stream, its dropped id. The last id given, kept after trimming.
const HEAD = `
if redis.call('EXISTS', KEYS[1]) == 0 then return redis.call('GET', KEYS[2]) or '0-0' end
local info = redis.call('XINFO', 'STREAM', KEYS[1])
for i = 1, #info, 2 do if info[i] == 'last-generated-id' then return info[i + 1] end end
return '0-0'`;

type Scripted = RedisClient & {
  rtPublish(
    key: string,
    dropped: string,
    size: number,
    age: number,
    event: string,
    data: string,
    topic: string,
  ): Promise<string>;
  rtSince(
    key: string,
    dropped: string,
    after: string,
    size: number,
    age: number,
  ): Promise<[string, [string, string[]][]]>;
  rtHead(key: string, dropped: string): Promise<string>;
  rtJoin(...args: [string, string, string, string, string, ...(string | number)[]]): Promise<string[]>;
  rtLeave(...args: [string, string, string, string, string, ...(string | number)[]]): Promise<number>;
  rtRefresh(...args: [string, string, string, string, string, ...(string | number)[]]): Promise<number>;
};

/** Makes a `redis://` backend on `url` with keys under `prefix`. */
export async function redisBackend(
  url: string,
  prefix: string,
  window: ReplayWindow,
  handlers: BackendHandlers,
  timeoutMs = 2000,
): Promise<RealtimeBackend> {
  const { Redis } = await importDriver<typeof import("ioredis")>("ioredis", "REALTIME_URL=redis://");
  // Commands fail fast while Redis is away (a broadcast answers 503) instead of queuing without end.
  const options: RedisOptions = { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true };
  const commands = new Redis(url, options) as Scripted;
  const feed = new Redis(url, { ...options, enableOfflineQueue: true, maxRetriesPerRequest: null });
  for (const client of [commands, feed]) client.on("error", () => undefined);
  commands.defineCommand("rtPublish", { numberOfKeys: 2, lua: PUBLISH });
  commands.defineCommand("rtSince", { numberOfKeys: 2, lua: SINCE });
  commands.defineCommand("rtHead", { numberOfKeys: 2, lua: HEAD });
  const presence = presenceScripts(TRIM);
  commands.defineCommand("rtJoin", { numberOfKeys: 5, lua: presence.join });
  commands.defineCommand("rtLeave", { numberOfKeys: 5, lua: presence.leave });
  commands.defineCommand("rtRefresh", { numberOfKeys: 5, lua: presence.refresh });
  const key = (channel: string) => `${prefix}:rt:${channel}`;
  // The presence commands' keys and first arguments (see redis-presence.ts).
  const presenceHead = (channel: string, ttlMs: number) =>
    [
      key(channel),
      `${key(channel)}:dropped`,
      `${key(channel)}:present`,
      `${key(channel)}:members`,
      `${key(channel)}:counts`,
      window.size,
      window.ageMs,
      `${topicPrefix}${channel}`,
      ttlMs,
    ] as [string, string, string, string, string, number, number, string, number];
  const topicPrefix = `${prefix}:rt:`;
  try {
    await Promise.all([commands.connect(), feed.connect()]);
  } catch (error) {
    commands.disconnect();
    feed.disconnect();
    throw new E_REALTIME_UNAVAILABLE(`Redis at ${new URL(url).host} did not answer (${(error as Error).message})`);
  }
  // After a reconnect, what was published while the feed was away is read from the streams; but
  // only once the feed listens again and the command connection answers: read earlier, a message
  // published between the read and the feed's SUBSCRIBE was lost, and a read while the command
  // connection was still down failed and the channel was skipped (a node missed a broadcast made
  // just after Redis came back).
  const resyncWhenListening = async () => {
    // ioredis sends its SUBSCRIBE commands again right after "ready"; a PING behind them on the
    // same connection answers once Redis has them.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      await feed.ping();
    } catch {
      return; // the feed went away again: its next "ready" comes back here
    }
    if (commands.status !== "ready") await new Promise((resolve) => commands.once("ready", resolve));
    handlers.resync?.();
  };
  let readyOnce = false;
  feed.on("ready", () => {
    if (readyOnce) void resyncWhenListening();
    readyOnce = true;
  });
  readyOnce = true;
  feed.on("message", (topic: string, text: string) => {
    if (!topic.startsWith(topicPrefix)) return;
    const first = text.indexOf("\n");
    const second = text.indexOf("\n", first + 1);
    if (first < 0 || second < 0) return;
    handlers.deliver({
      channel: topic.slice(topicPrefix.length),
      id: text.slice(0, first),
      event: text.slice(first + 1, second),
      data: text.slice(second + 1),
    });
  });

  const guarded = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        run(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } catch (error) {
      throw new E_REALTIME_UNAVAILABLE(`Redis ${what} failed (${(error as Error).message})`);
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    kind: "redis",
    publish: (channel, event, data) =>
      guarded("broadcast", () =>
        commands.rtPublish(
          key(channel),
          `${key(channel)}:dropped`,
          window.size,
          window.ageMs,
          event,
          data,
          `${topicPrefix}${channel}`,
        ),
      ),
    listen: async (channel) => {
      await guarded("subscribe", () => feed.subscribe(`${topicPrefix}${channel}`));
    },
    unlisten: async (channel) => {
      await feed.unsubscribe(`${topicPrefix}${channel}`).catch(() => undefined);
    },
    join: (channel, member, conn, info, ttlMs) =>
      guarded("presence", () => commands.rtJoin(...presenceHead(channel, ttlMs), member, conn, info)),
    leave: async (channel, member, conn, ttlMs) => {
      await guarded("presence", () => commands.rtLeave(...presenceHead(channel, ttlMs), member, conn));
    },
    refresh: async (channel, entries, ttlMs) => {
      const flat = entries.flatMap((entry) => [entry.member, entry.conn, entry.info]);
      await guarded("presence", () => commands.rtRefresh(...presenceHead(channel, ttlMs), ...flat));
    },
    head: (channel) => guarded("read", () => commands.rtHead(key(channel), `${key(channel)}:dropped`)),
    async since(channel, after) {
      const [dropped, entries] = await guarded("read", () =>
        commands.rtSince(key(channel), `${key(channel)}:dropped`, after, window.size, window.ageMs),
      );
      // An expired stream (idle past the window's age) can resume only a position before any message.
      if (dropped === "missing") return after === ZERO_ID ? [] : "reset";
      if (compareIds(after, dropped) < 0) return "reset";
      return entries.map(([id, fields]): StoredMessage => {
        const field = (name: string) => fields[fields.indexOf(name) + 1] ?? "";
        return { channel, id, event: field("e"), data: field("d") };
      });
    },
    ping: async () => {
      await guarded("ping", () => commands.ping());
    },
    async close() {
      commands.disconnect();
      feed.disconnect();
    },
  };
}

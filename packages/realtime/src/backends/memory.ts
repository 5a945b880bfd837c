/**
 * The `memory:` backend: one process, a ring of each channel's recent messages. What development
 * and tests use; on several workers each would hear only its own broadcasts (REALTIME_URL=redis://).
 */
import { compareIds, ZERO_ID } from "../ids.js";
import type { BackendHandlers, RealtimeBackend, ReplayWindow, StoredMessage } from "./types.js";

interface Presence {
  /** Connections by id: the member each belongs to. */
  readonly conns: Map<string, string>;
  /** Members by id: their info and how many connections they have. */
  readonly members: Map<string, { info: string; count: number }>;
}

interface Kept extends StoredMessage {
  readonly at: number;
}

interface ChannelLog {
  messages: Kept[];
  last: string;
  /** The newest id dropped from the window: a position before it cannot be resumed. */
  dropped: string;
}

/** Makes a `memory:` backend. */
export function memoryBackend(window: ReplayWindow, handlers: BackendHandlers): RealtimeBackend {
  const logs = new Map<string, ChannelLog>();
  const listening = new Set<string>();
  const presence = new Map<string, Presence>();
  let lastMs = 0;
  let seq = 0;

  const trim = (log: ChannelLog, now: number) => {
    let cut = 0;
    while (
      cut < log.messages.length &&
      (log.messages.length - cut > window.size || log.messages[cut]!.at < now - window.ageMs)
    )
      cut++;
    if (cut === 0) return;
    log.dropped = log.messages[cut - 1]!.id;
    log.messages = log.messages.slice(cut);
  };

  const publish = (channel: string, event: string, data: string): string => {
    const now = Date.now();
    if (now > lastMs) {
      lastMs = now;
      seq = 0;
    } else seq++;
    const id = `${lastMs}-${seq}`;
    let log = logs.get(channel);
    if (!log) logs.set(channel, (log = { messages: [], last: ZERO_ID, dropped: ZERO_ID }));
    const message = { channel, id, event, data, at: now };
    log.messages.push(message);
    log.last = id;
    trim(log, now);
    if (listening.has(channel)) handlers.deliver({ channel, id, event, data });
    return id;
  };

  return {
    kind: "memory",
    async publish(channel, event, data) {
      return publish(channel, event, data);
    },
    async join(channel, member, conn, info) {
      let here = presence.get(channel);
      if (!here) presence.set(channel, (here = { conns: new Map(), members: new Map() }));
      if (!here.conns.has(conn)) {
        here.conns.set(conn, member);
        const known = here.members.get(member);
        if (known) {
          known.count++;
          known.info = info;
        } else {
          here.members.set(member, { info, count: 1 });
          publish(channel, "presence:join", info);
        }
      }
      return [...here.members.values()].map((entry) => entry.info);
    },
    async leave(channel, member, conn) {
      const here = presence.get(channel);
      if (!here?.conns.delete(conn)) return;
      const known = here.members.get(member);
      if (known && --known.count <= 0) {
        here.members.delete(member);
        publish(channel, "presence:leave", known.info);
      }
      if (here.conns.size === 0) presence.delete(channel);
    },
    // One process: its connections end with it, nothing expires.
    async refresh() {},
    async listen(channel) {
      listening.add(channel);
    },
    async unlisten(channel) {
      listening.delete(channel);
      // A channel no one listens to and whose window is empty holds no memory.
      const log = logs.get(channel);
      if (log && log.messages.length === 0) logs.delete(channel);
    },
    async head(channel) {
      return logs.get(channel)?.last ?? ZERO_ID;
    },
    async since(channel, after) {
      const log = logs.get(channel);
      if (!log) return after === ZERO_ID ? [] : "reset";
      trim(log, Date.now());
      if (compareIds(after, log.dropped) < 0) return "reset";
      return log.messages
        .filter((message) => compareIds(message.id, after) > 0)
        .map(({ channel: name, id, event, data }) => ({ channel: name, id, event, data }));
    },
    async ping() {},
    async close() {
      listening.clear();
      logs.clear();
      presence.clear();
    },
  };
}

/**
 * The `memory:` backend: one process, a ring of each channel's recent messages. What development
 * and tests use; on several workers each would hear only its own broadcasts (REALTIME_URL=redis://).
 */
import { compareIds, ZERO_ID } from "../ids.js";
import type { BackendHandlers, RealtimeBackend, ReplayWindow, StoredMessage } from "./types.js";

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

  return {
    kind: "memory",
    async publish(channel, event, data) {
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
    },
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
    },
  };
}

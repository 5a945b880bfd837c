/**
 * `broadcast(channel, event, data)`: from a view, a job, a signal receiver or the console, through
 * the hub of the app set up last in this process (one app per process in production).
 */
import { E_REALTIME_OFF } from "./errors.js";
import type { RealtimeHub } from "./hub.js";

let current: RealtimeHub | undefined;

/** Makes `hub` the one `broadcast()` uses; `release` forgets it again (at the app's close). */
export const setCurrentHub = Object.assign(
  (hub: RealtimeHub): void => {
    current = hub;
  },
  {
    release(hub: RealtimeHub): void {
      if (current === hub) current = undefined;
    },
    off(): Promise<never> {
      return Promise.reject(new E_REALTIME_OFF());
    },
  },
);

/**
 * Sends `data` (JSON) as `event` to every subscriber of `channel` on every node, each once and in
 * order per channel; resolves with the message's id. Refused: an undeclared channel
 * (`E_REALTIME_CHANNEL_UNKNOWN`), a payload its schema refuses (`E_REALTIME_PAYLOAD_INVALID`), one
 * over `realtime.maxMessageSize` (`E_REALTIME_MESSAGE_TOO_LARGE`), Redis away (`E_REALTIME_UNAVAILABLE`).
 */
export function broadcast(channel: string, event: string, data: unknown): Promise<string> {
  return current ? current.broadcast(channel, event, data) : setCurrentHub.off();
}

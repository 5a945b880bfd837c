/**
 * What a realtime backend does: keeps a bounded window of each channel's messages (for resuming),
 * and delivers each new message to every process listening to the channel, in order.
 */

/** One broadcast as the backend keeps and delivers it. */
export interface StoredMessage {
  readonly channel: string;
  /** `<ms>-<seq>`, increasing per channel. */
  readonly id: string;
  /** The event name (`updated`). */
  readonly event: string;
  /** The payload's JSON text. */
  readonly data: string;
}

/** The window kept per channel for `Last-Event-ID`. */
export interface ReplayWindow {
  /** Messages kept per channel. */
  readonly size: number;
  /** How long a message is kept, in ms. */
  readonly ageMs: number;
}

/** A backend: `memory:` or `redis://`. */
export interface RealtimeBackend {
  readonly kind: "memory" | "redis";
  /** Keeps and delivers a message; resolves with its id. */
  publish(channel: string, event: string, data: string): Promise<string>;
  /** Starts delivering the channel's new messages to `deliver` (once per process); resolves once listening. */
  listen(channel: string): Promise<void>;
  /** Stops delivering the channel's messages. */
  unlisten(channel: string): Promise<void>;
  /** The id of the channel's last message (`0-0` before any). */
  head(channel: string): Promise<string>;
  /** The messages after `after` still in the window, or `"reset"` when some of them are gone. */
  since(channel: string, after: string): Promise<StoredMessage[] | "reset">;
  /** Resolves when the backend answers (readiness). */
  ping(): Promise<void>;
  /** Releases connections. */
  close(): Promise<void>;
}

/** What a backend calls: each new message of a listened channel, and (Redis) after a reconnect. */
export interface BackendHandlers {
  deliver(message: StoredMessage): void;
  /** The live feed was interrupted (Redis reconnected): messages may have been missed. */
  resync?(): void;
}

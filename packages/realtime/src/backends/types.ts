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
  /**
   * Adds a connection (`conn`, unique per process and connection) of `member` (its id as JSON) to
   * the channel's presence, `info` its JSON; the member's first connection broadcasts
   * `presence:join`. Resolves with every member's info (JSON), this one included.
   */
  join(channel: string, member: string, conn: string, info: string, ttlMs: number): Promise<string[]>;
  /** Removes a connection; the member's last one broadcasts `presence:leave`. */
  leave(channel: string, member: string, conn: string, ttlMs: number): Promise<void>;
  /**
   * Keeps this process's connections present for another `ttlMs` (Redis: an entry not refreshed
   * in time is removed, and its member's leave broadcast, by whichever node looks next).
   */
  refresh(channel: string, entries: readonly PresenceEntry[], ttlMs: number): Promise<void>;
  /** Resolves when the backend answers (readiness). */
  ping(): Promise<void>;
  /** Releases connections. */
  close(): Promise<void>;
}

/** One connection present on a channel, as a process keeps it. */
export interface PresenceEntry {
  readonly member: string;
  readonly conn: string;
  readonly info: string;
}

/** What a backend calls: each new message of a listened channel, and (Redis) after a reconnect. */
export interface BackendHandlers {
  deliver(message: StoredMessage): void;
  /** The live feed was interrupted (Redis reconnected): messages may have been missed. */
  resync?(): void;
}

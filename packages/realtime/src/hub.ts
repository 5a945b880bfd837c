/**
 * A process's realtime hub: broadcasts go to the backend; the messages of the channels someone
 * here subscribes to come back from it and are handed to each local subscriber once, in order
 * (a message whose id is not after the subscriber's position is never handed twice).
 */
import { telemetry, traceCall } from "@fwkit/battery-kit";
import { randomBytes } from "node:crypto";
import type { PresenceEntry, RealtimeBackend, StoredMessage } from "./backends/types.js";
import type { PresenceMember } from "./channels.js";
import { matchChannel, type ChannelPattern } from "./channels.js";
import { E_REALTIME_MESSAGE_TOO_LARGE, E_REALTIME_PAYLOAD_INVALID } from "./errors.js";
import { compareIds } from "./ids.js";

/** Where a subscription's messages go. */
export interface SubscriptionSink {
  /** A message of the channel at `index` of the subscription. */
  message(index: number, message: StoredMessage): void;
  /** The channel at `index` lost messages that cannot be replayed: the client must reload its state. */
  reset(index: number, channel: string): void;
}

/** A prepared subscription: `start()` hands over what was missed and goes live; `close()` leaves. */
export interface Subscription {
  /** Each channel's position, after `start()` (the stream's first id). */
  readonly positions: readonly string[];
  start(): void;
  close(): void;
}

/** A broadcast as the test client lists it. */
export interface RecordedBroadcast {
  readonly channel: string;
  readonly event: string;
  readonly data: unknown;
  readonly id: string;
}

interface Subscriber {
  readonly index: number;
  position: string;
  buffer: StoredMessage[] | undefined;
  readonly sink: SubscriptionSink;
}

const EVENT = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;
const RESERVED_EVENTS = new Set(["reset", "ready", "shutdown"]);

/** A connection's place on a presence channel: the members when it joined, and how it leaves. */
export interface PresenceHandle {
  /** Every member's info when this connection joined, itself included. */
  readonly members: readonly unknown[];
  /** Leaves (at the connection's close); the member's last connection broadcasts `presence:leave`. */
  leave(): void;
}

/** The hub of one app in one process. */
export class RealtimeHub {
  /** Broadcasts made through this hub, newest last (kept in the test environment only). */
  readonly recorded: RecordedBroadcast[] | undefined;
  private readonly local = new Map<string, Set<Subscriber>>();
  private readonly listening = new Map<string, Promise<void>>();
  /** The newest id handed out per channel, from which a resync reads. */
  private readonly seen = new Map<string, string>();
  backend!: RealtimeBackend;
  /** How long a connection stays present without its node refreshing it (`realtime.presenceTtl`). */
  presenceTtlMs = 30_000;
  /** This process's connections present, by channel, refreshed every third of the ttl. */
  private readonly present = new Map<string, Map<string, PresenceEntry>>();
  private readonly processId = randomBytes(6).toString("hex");
  private connections = 0;
  private refreshedAt = Date.now();
  /** Told the latency (ms from the broadcast to its hand-over here) of each message handed to local subscribers. */
  onDelivered: ((latencyMs: number) => void) | undefined;

  constructor(
    private readonly patterns: readonly ChannelPattern[],
    private readonly maxMessageSize: number,
    record: boolean,
  ) {
    this.recorded = record ? [] : undefined;
  }

  /**
   * Sends `data` as `event` to every subscriber of `channel` on every node; resolves with its id.
   * Traced (with the observability battery's tracing on) as one operation under what made it.
   */
  broadcast(channel: string, event: string, data: unknown): Promise<string> {
    // Tracing off: one property read, nothing built.
    if (!telemetry.realtimeBroadcast.hasSubscribers) return this.send(channel, event, data);
    return traceCall(
      telemetry.realtimeBroadcast,
      () => ({ channel, pattern: this.patternName(channel), event: String(event).slice(0, 64) }),
      () => this.send(channel, event, data),
    );
  }

  /** The pattern `channel` matches, for a span; a channel none matches fails in `send`. */
  private patternName(channel: string): string {
    try {
      return matchChannel(this.patterns, channel).pattern.pattern;
    } catch {
      return "(none)";
    }
  }

  private async send(channel: string, event: string, data: unknown): Promise<string> {
    const { pattern } = matchChannel(this.patterns, channel);
    if (typeof event !== "string" || !EVENT.test(event) || RESERVED_EVENTS.has(event) || event.startsWith("presence:"))
      throw new E_REALTIME_PAYLOAD_INVALID(
        channel,
        `the event name "${String(event).slice(0, 64)}" must be a letter then letters, digits or _ . : - (at most 64), and not reset, ready, shutdown or presence:...`,
      );
    let value = data;
    const schema = pattern.definition.schema;
    if (schema) {
      const result = await schema["~standard"].validate(data);
      if (result.issues)
        throw new E_REALTIME_PAYLOAD_INVALID(
          channel,
          `the payload does not match the channel's schema: ${result.issues.map((issue) => issue.message).join("; ")}`,
        );
      value = result.value;
    }
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch (error) {
      throw new E_REALTIME_PAYLOAD_INVALID(channel, `the payload is not JSON (${(error as Error).message})`);
    }
    if (json === undefined) throw new E_REALTIME_PAYLOAD_INVALID(channel, "the payload is not JSON (undefined)");
    const size = Buffer.byteLength(json);
    if (size > this.maxMessageSize) throw new E_REALTIME_MESSAGE_TOO_LARGE(channel, size, this.maxMessageSize);
    const id = await this.backend.publish(channel, event, json);
    this.recorded?.push({ channel, event, data: JSON.parse(json) as unknown, id });
    return id;
  }

  /**
   * Makes a connection present on `channel` as `member` (its `id` keys it: a user connected twice is
   * one member); the member's first connection broadcasts `presence:join` with its info.
   */
  async join(channel: string, member: PresenceMember): Promise<PresenceHandle> {
    const entry: PresenceEntry = {
      member: JSON.stringify(member.id),
      conn: `${this.processId}.${++this.connections}`,
      info: JSON.stringify(member),
    };
    let here = this.present.get(channel);
    if (!here) this.present.set(channel, (here = new Map()));
    here.set(entry.conn, entry);
    let infos: string[];
    try {
      infos = await this.backend.join(channel, entry.member, entry.conn, entry.info, this.presenceTtlMs);
    } catch (error) {
      this.forget(channel, entry.conn);
      throw error;
    }
    let left = false;
    return {
      members: infos.map((info) => JSON.parse(info) as unknown),
      leave: () => {
        if (left) return;
        left = true;
        this.forget(channel, entry.conn);
        // Not answered (Redis away): the entry expires, and another node announces the leave.
        void this.backend.leave(channel, entry.member, entry.conn, this.presenceTtlMs).catch(() => undefined);
      },
    };
  }

  /** Keeps this process's presence entries alive (every third of the ttl); called every second. */
  presenceTick(now: number): void {
    if (now - this.refreshedAt < this.presenceTtlMs / 3) return;
    this.refreshedAt = now;
    const channels = new Set(this.present.keys());
    // Channels listened to here with no member of this process: looked at too, so the members of
    // a node that died are removed and their leave broadcast.
    for (const channel of this.local.keys())
      if (matchChannel(this.patterns, channel).pattern.definition.presence) channels.add(channel);
    for (const channel of channels) {
      const entries = [...(this.present.get(channel)?.values() ?? [])];
      void this.backend.refresh(channel, entries, this.presenceTtlMs).catch(() => undefined);
    }
  }

  private forget(channel: string, conn: string): void {
    const here = this.present.get(channel);
    here?.delete(conn);
    if (here?.size === 0) this.present.delete(channel);
  }

  /** A message of a channel this process listens to, from the backend. */
  deliver(message: StoredMessage): void {
    const seen = this.seen.get(message.channel);
    if (seen === undefined || compareIds(message.id, seen) > 0) this.seen.set(message.channel, message.id);
    const subscribers = this.local.get(message.channel);
    if (!subscribers) return;
    // The id's first part is the time the backend took the broadcast (Redis's clock across nodes).
    this.onDelivered?.(Math.max(0, Date.now() - Number(message.id.slice(0, message.id.indexOf("-")))));
    for (const subscriber of subscribers) hand(subscriber, message);
  }

  /** After the live feed was interrupted: reads what each listened channel missed from the backend. */
  async resync(): Promise<void> {
    for (const [channel, subscribers] of this.local) {
      const from = this.seen.get(channel);
      if (from === undefined) continue;
      const missed = await this.backend.since(channel, from).catch(() => undefined);
      if (missed === undefined) continue;
      if (missed === "reset") {
        const head = await this.backend.head(channel).catch(() => undefined);
        if (head === undefined) continue;
        this.seen.set(channel, head);
        for (const subscriber of subscribers) {
          subscriber.position = head;
          subscriber.sink.reset(subscriber.index, channel);
        }
      } else for (const message of missed) this.deliver(message);
    }
  }

  /**
   * Subscribes to `channels` (already authorised), resuming from `positions` when given. Nothing
   * reaches the sink before `start()`; live messages that arrive meanwhile are kept and handed over
   * after the missed ones, each once.
   */
  async subscribe(
    channels: readonly string[],
    positions: readonly string[] | undefined,
    sink: SubscriptionSink,
  ): Promise<Subscription> {
    const subscribers = channels.map(
      (_channel, index): Subscriber => ({ index, position: positions?.[index] ?? "0-0", buffer: [], sink }),
    );
    const leave = () =>
      channels.forEach((channel, index) => {
        const set = this.local.get(channel);
        set?.delete(subscribers[index]!);
        if (set && set.size === 0) {
          this.local.delete(channel);
          this.listening.delete(channel);
          this.seen.delete(channel);
          void this.backend.unlisten(channel).catch(() => undefined);
        }
      });
    channels.forEach((channel, index) => {
      let set = this.local.get(channel);
      if (!set) this.local.set(channel, (set = new Set()));
      set.add(subscribers[index]!);
    });
    const resets = new Set<number>();
    const missed: StoredMessage[][] = channels.map(() => []);
    try {
      await Promise.all(
        channels.map((channel) => {
          let listening = this.listening.get(channel);
          if (!listening) {
            listening = this.backend.listen(channel);
            this.listening.set(channel, listening);
            listening.catch(() => this.listening.delete(channel));
          }
          return listening;
        }),
      );
      await Promise.all(
        channels.map(async (channel, index) => {
          const subscriber = subscribers[index]!;
          const from = positions?.[index];
          const since = from === undefined ? undefined : await this.backend.since(channel, from);
          if (since === undefined || since === "reset") {
            if (since === "reset") resets.add(index);
            subscriber.position = await this.backend.head(channel);
          } else missed[index] = since;
        }),
      );
    } catch (error) {
      leave();
      throw error;
    }
    let closed = false;
    return {
      positions: subscribers.map((subscriber) => subscriber.position),
      start: () => {
        subscribers.forEach((subscriber, index) => {
          if (resets.has(index)) sink.reset(index, channels[index]!);
          const buffered = subscriber.buffer ?? [];
          subscriber.buffer = undefined;
          for (const message of missed[index]!) hand(subscriber, message);
          for (const message of buffered) hand(subscriber, message);
        });
      },
      close: () => {
        if (closed) return;
        closed = true;
        leave();
      },
    };
  }
}

/** Hands a message to a subscriber once: kept while it is not started, skipped when not after its position. */
function hand(subscriber: Subscriber, message: StoredMessage): void {
  if (subscriber.buffer) {
    subscriber.buffer.push(message);
    return;
  }
  if (compareIds(message.id, subscriber.position) <= 0) return;
  subscriber.position = message.id;
  subscriber.sink.message(subscriber.index, message);
}

/**
 * One server-sent event stream: writes a subscription's messages with the stream's position as
 * `id:`, heartbeats while idle, and drops a client that reads too slowly (what waits for it is
 * bounded by `maxBuffered`, never more).
 */
import type { ServerResponse } from "node:http";
import type { StoredMessage } from "./backends/types.js";
import { streamId } from "./ids.js";

/** What a stream reports to its node. */
export interface StreamEvents {
  sent(count: number): void;
  dropped(stream: EventStream): void;
  closed(stream: EventStream): void;
}

/** An open stream. */
export class EventStream {
  lastWrite = Date.now();
  private ended = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly channels: readonly string[],
    private readonly positions: string[],
    private readonly maxBuffered: number,
    private readonly events: StreamEvents,
  ) {
    res.on("close", () => this.finish());
  }

  /** Writes a message of the channel at `index`. */
  message(index: number, message: StoredMessage): void {
    this.positions[index] = message.id;
    this.write(
      `id: ${streamId(this.positions)}\nevent: ${message.event}\ndata: {"channel":${JSON.stringify(message.channel)},"data":${message.data}}\n\n`,
    );
    this.events.sent(1);
  }

  /** Tells the client the channel at `index` missed messages it cannot have: reload its state. */
  reset(_index: number, channel: string): void {
    this.write(`id: ${streamId(this.positions)}\nevent: reset\ndata: ${JSON.stringify({ channel })}\n\n`);
  }

  /** The first event: the stream is live, with every channel's position (a reconnect resumes from it). */
  ready(positions: readonly string[]): void {
    positions.forEach((position, index) => {
      this.positions[index] = position;
    });
    this.write(
      `id: ${streamId(this.positions)}\nevent: ready\ndata: ${JSON.stringify({ channels: this.channels })}\n\n`,
    );
  }

  /** A presence channel's members when the stream joined (`presence:here`), itself included. */
  members(channel: string, members: readonly unknown[]): void {
    this.write(
      `id: ${streamId(this.positions)}\nevent: presence:here\ndata: ${JSON.stringify({ channel, data: members })}\n\n`,
    );
  }

  /** A comment line, when nothing was written for a while, so proxies keep the stream open. */
  heartbeat(now: number): void {
    this.write(": heartbeat\n\n", now);
  }

  /** Ends the stream telling the client when to reconnect (shutdown: to another node, resuming). */
  end(retryMs: number): void {
    if (this.ended) return;
    this.res.end(`retry: ${retryMs}\nevent: shutdown\ndata: {}\n\n`);
    this.finish();
  }

  /** True once the stream is over. */
  get closed(): boolean {
    return this.ended;
  }

  private write(text: string, now = Date.now()): void {
    if (this.ended) return;
    this.lastWrite = now;
    this.res.write(text);
    // The socket took what it could; what waits beyond the bound is a client that does not read.
    if (this.res.writableLength > this.maxBuffered) {
      this.events.dropped(this);
      this.res.destroy();
      this.finish();
    }
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.events.closed(this);
  }
}

// A WebSocket subscriber of the realtime channels (the `ws` client), for the cluster tests: the
// same channels as the event stream, subscribed by message on the realtime path, every broadcast
// kept as it arrived, waited for by what arrived, never for a time.
import assert from "node:assert/strict";
import { WebSocket } from "ws";
import type { Received } from "./realtime.js";

type Frame = Record<string, unknown> & { type: string };

/** A socket on `url` (`ws://host:port/_events`) subscribed to some channels. */
export class SocketSubscriber {
  readonly received: Received[] = [];
  /** Frames other than events (subscribed, error), in order. */
  readonly others: Frame[] = [];
  private socket: WebSocket | undefined;
  private readonly wakers = new Set<() => void>();

  /**
   * `origin` is the app's origin as the balancer forwards it: the page's own, so the handshake is
   * same-site (a Node client sends what a browser of the app's page would).
   */
  constructor(
    private readonly url: string,
    private readonly origin: string,
  ) {}

  /** Opens the socket and subscribes to `channels`; resolves once each is subscribed. */
  async open(channels: readonly string[]): Promise<void> {
    const socket = new WebSocket(this.url, { origin: this.origin });
    this.socket = socket;
    socket.on("message", (data) => {
      const frame = JSON.parse(String(data)) as Frame;
      if (frame.type === "event") {
        const payload = frame["data"] as { source: string; n: number };
        this.received.push({ channel: String(frame["channel"]), source: payload.source, n: payload.n });
      } else this.others.push(frame);
      for (const wake of [...this.wakers]) wake();
    });
    await new Promise<void>((resolve, reject) => {
      socket.once("open", resolve);
      socket.once("unexpected-response", (_req, res) =>
        reject(new Error(`the WebSocket handshake at ${this.url} was answered ${res.statusCode}`)),
      );
      socket.once("error", reject);
    });
    for (const channel of channels) socket.send(JSON.stringify({ type: "subscribe", channel }));
    await this.until(
      `the subscriptions at ${this.url}`,
      () => this.others.filter((frame) => frame.type === "subscribed").length >= channels.length,
      60_000,
    );
    const refused = this.others.filter((frame) => frame.type === "error");
    assert.deepEqual(refused, [], "no subscription refused");
  }

  close(): void {
    this.socket?.terminate();
  }

  /** Resolves once `check` holds (tested on every frame); fails after `ms`. */
  until(what: string, check: () => boolean, ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (check()) return resolve();
      const timer = setTimeout(() => {
        this.wakers.delete(wake);
        reject(
          new assert.AssertionError({
            message: `timed out waiting for ${what}: ${this.received.length} received, frames ${JSON.stringify(this.others.slice(-5))}`,
          }),
        );
      }, ms);
      const wake = () => {
        if (!check()) return;
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve();
      };
      this.wakers.add(wake);
    });
  }

  /** The numbers received from `source` on `channel`, in the order they came. */
  sequence(channel: string, source: string): number[] {
    return this.received.filter((item) => item.channel === channel && item.source === source).map((item) => item.n);
  }
}

// A Node WebSocket client (the `ws` package) for the tests: opens a socket on an app, keeps every
// frame it gets, and waits for frames by what they are, never for a time.
import assert from "node:assert/strict";
import { WebSocket } from "ws";

/** A frame the server sent. */
export type Frame = Record<string, unknown> & { type: string };

/** An open test socket. */
export interface TestSocket {
  readonly socket: WebSocket;
  readonly frames: Frame[];
  /** The close code, once closed. */
  closeCode: number | undefined;
  send(frame: unknown): void;
  /** Waits until `count` frames match (60 s at most), and answers them. */
  waitFor(count: number, match: (frame: Frame) => boolean): Promise<Frame[]>;
  /** Waits until the socket is closed; answers the close code. */
  closed(): Promise<number>;
  close(): void;
}

/** The answer a refused handshake got. */
export interface Refusal {
  readonly status: number;
  readonly body: string;
}

const DEADLINE_MS = 60_000;

async function until<T>(what: string, check: () => T | undefined): Promise<T> {
  const end = Date.now() + DEADLINE_MS;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Opens `ws://` at `url` (an `http://` app URL plus path) with the app's own origin unless
 * `headers` say otherwise; resolves with the socket, or with the HTTP answer of a refused handshake.
 */
export function openSocket(url: string, headers: Record<string, string> = {}): Promise<TestSocket | Refusal> {
  const target = new URL(url);
  const origin = headers["Origin"] ?? target.origin;
  target.protocol = "ws:";
  const socket = new WebSocket(target, { headers: { ...headers, Origin: origin } });
  const frames: Frame[] = [];
  let closeCode: number | undefined;
  return new Promise((resolve, reject) => {
    socket.on("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    socket.on("error", reject);
    socket.on("message", (data) => frames.push(JSON.parse(String(data)) as Frame));
    socket.on("close", (code) => {
      closeCode = code;
      client.closeCode = code;
    });
    const client: TestSocket = {
      socket,
      frames,
      closeCode,
      send: (frame) => socket.send(typeof frame === "string" ? frame : JSON.stringify(frame)),
      waitFor: (count, match) =>
        until(`${count} frames`, () => {
          const found = frames.filter(match);
          return found.length >= count ? found : undefined;
        }),
      closed: () => until("the socket to close", () => client.closeCode),
      close: () => socket.close(),
    };
    socket.on("open", () => resolve(client));
  });
}

/** `openSocket` that must succeed. */
export async function connectSocket(url: string, headers: Record<string, string> = {}): Promise<TestSocket> {
  const opened = await openSocket(url, headers);
  assert.ok("socket" in opened, `the handshake was refused: ${JSON.stringify(opened)}`);
  return opened;
}

/** Frames of a type (and channel). */
export const ofType =
  (type: string, channel?: string) =>
  (frame: Frame): boolean =>
    frame.type === type && (channel === undefined || frame["channel"] === channel);

// Realtime across nodes: the scaffolded fw-b app gains a public channel pattern (`feed/:name`), a
// view that broadcasts (one message, or a run of them), a job that broadcasts from a `:work`
// process, and the settings a test on one machine needs (every client comes from 127.0.0.1, so the
// per-address subscription rate is raised). What the realtime cluster test and load script share.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { request, type ClientRequest } from "node:http";
import { join } from "node:path";

const VIEW = `import { broadcast, FwB } from "fw-b";
import { renderJson } from "fw-b/decorators";
import { Announce } from "../jobs/announce.js";

/** Broadcasts on feed/<channel>: one message, a run of them, or a job that sends them from a worker. */
@renderJson
export class Live extends FwB {
  async one(channel: string, source: string, n: string) {
    const id = await broadcast(\`feed/\${channel}\`, "n", { source, n: Number(n) });
    return { id, node: process.env["NODE_NAME"] ?? "" };
  }
  async run(channel: string, source: string, count: string, size = "0") {
    const pad = "x".repeat(Number(size));
    for (let n = 0; n < Number(count); n++) await broadcast(\`feed/\${channel}\`, "n", { source, n, pad });
    return { sent: Number(count), node: process.env["NODE_NAME"] ?? "" };
  }
  async job(channel: string, source: string, count: string) {
    await Announce.dispatch({ channel, source, count: Number(count) });
    return { dispatched: true };
  }
  /** The process's memory after a full collection (with --expose-gc), for the load figures. */
  memory() {
    (globalThis as { gc?: () => void }).gc?.();
    const usage = process.memoryUsage();
    return { pid: process.pid, rss: usage.rss, held: usage.heapUsed + usage.external };
  }
}
`;

const JOB = `import { broadcast, Job } from "fw-b";

/** Broadcasts count messages on feed/<channel>, in order, from the worker that runs it. */
export class Announce extends Job<{ channel: string; source: string; count: number }> {
  async handle({ channel, source, count }: { channel: string; source: string; count: number }) {
    for (let n = 0; n < count; n++) await broadcast(\`feed/\${channel}\`, "n", { source, n });
  }
}
`;

/** The realtime block the tests' app declares. */
export const REALTIME_CONFIG = `realtime: {
    channels: { "feed/:name": { public: true } },
    // Every test client comes from 127.0.0.1: one address opening thousands of streams.
    subscribeRate: { limit: 100000, window: "1m" },
    replay: { size: 5000, age: "5m" },
    retry: "500ms",
  },`;

/** Adds the channels, the broadcasting view and job to a scaffolded fw-b app (before its build). */
export function addRealtime(root: string): void {
  mkdirSync(join(root, "jobs"), { recursive: true });
  writeFileSync(join(root, "jobs", "announce.ts"), JOB);
  writeFileSync(join(root, "views", "live.ts"), VIEW);
  const config = join(root, "lib", "config.ts");
  const text = readFileSync(config, "utf8");
  const anchor = "export const config = defineConfig({";
  if (!text.includes(anchor)) assert.fail(`${config} has no ${anchor}`);
  writeFileSync(config, text.replace(anchor, `${anchor}\n  ${REALTIME_CONFIG}`));
}

/** One broadcast a subscriber received. */
export interface Received {
  readonly channel: string;
  readonly source: string;
  readonly n: number;
}

/**
 * A subscriber of the event stream as `EventSource` behaves, on node:http: reconnects after the
 * server ends or cuts the stream (waiting its `retry:`), sending the last `id:` as `Last-Event-ID`;
 * a refused reconnect (503 while a node drains or Redis is down) is tried again.
 */
export class Subscriber {
  readonly received: Received[] = [];
  /** Streams opened (1 + reconnects) and the answers of refused attempts. */
  connects = 0;
  readonly refusals: number[] = [];
  readonly resets: string[] = [];
  lastId = "";
  private retryMs = 500;
  private closed = false;
  private request: ClientRequest | undefined;
  private readonly wakers = new Set<() => void>();

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  /** Opens the stream; resolves once it is live (its `ready` event). */
  async open(): Promise<void> {
    const before = this.connects;
    this.connect();
    await this.until(`the stream at ${this.url} to open`, () => this.connects > before, 60_000);
  }

  close(): void {
    this.closed = true;
    this.request?.destroy();
  }

  /** Resolves once `check` holds (tested on every event); fails after `ms`. */
  until(what: string, check: () => boolean, ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (check()) return resolve();
      const timer = setTimeout(() => {
        this.wakers.delete(wake);
        reject(
          new assert.AssertionError({
            message: `timed out waiting for ${what}: ${this.received.length} received, ${this.connects} connects, refusals ${JSON.stringify(this.refusals.slice(-5))}`,
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

  private wake(): void {
    for (const waker of [...this.wakers]) waker();
  }

  private connect(): void {
    if (this.closed) return;
    const target = new URL(this.url);
    let over = false;
    const again = () => {
      if (over) return;
      over = true;
      this.request = undefined;
      if (!this.closed) setTimeout(() => this.connect(), this.retryMs);
    };
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        agent: false,
        headers: {
          Accept: "text/event-stream",
          ...this.headers,
          ...(this.lastId ? { "Last-Event-ID": this.lastId } : {}),
        },
      },
      (res) => {
        if (res.statusCode !== 200) {
          this.refusals.push(res.statusCode ?? 0);
          res.resume();
          res.on("end", again);
          return;
        }
        res.setEncoding("utf8");
        let pending = "";
        res.on("data", (chunk: string) => {
          pending += chunk;
          let at = pending.indexOf("\n\n");
          while (at >= 0) {
            this.block(pending.slice(0, at));
            pending = pending.slice(at + 2);
            at = pending.indexOf("\n\n");
          }
          this.wake();
        });
        res.on("close", again);
      },
    );
    req.on("error", again);
    this.request = req;
    req.end();
  }

  private block(text: string): void {
    let event = "message";
    let data = "";
    let id: string | undefined;
    for (const line of text.split("\n")) {
      if (line.startsWith("id: ")) id = line.slice(4);
      else if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data += line.slice(6);
      else if (line.startsWith("retry: ")) this.retryMs = Number(line.slice(7));
    }
    if (id !== undefined) this.lastId = id;
    if (event === "ready") this.connects++;
    else if (event === "reset") this.resets.push(data);
    else if (event === "n") {
      const { channel, data: payload } = JSON.parse(data) as { channel: string; data: { source: string; n: number } };
      this.received.push({ channel, source: payload.source, n: payload.n });
    }
  }

  /** The numbers received from `source` on `channel`, in the order they came. */
  sequence(channel: string, source: string): number[] {
    return this.received.filter((item) => item.channel === channel && item.source === source).map((item) => item.n);
  }
}

// The in-process request harness of micro.ts and micro-production.ts: a GET handed to an app's
// request callback as real IncomingMessage / ServerResponse objects (no socket), and the paired,
// alternating blocks that compare apps by CPU time per request.
import { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { E_BENCH_RUN } from "./errors.js";

/** A Node request callback (Koa's `app.callback()`). */
export type Callback = (req: IncomingMessage, res: ServerResponse) => Promise<unknown>;

/** One app and request of a paired run, compared with the variant named `reference`. */
export interface Variant {
  readonly callback: Callback;
  readonly url: string;
  readonly reference: string;
}

const socket = {
  encrypted: false,
  remoteAddress: "127.0.0.1",
  readableHighWaterMark: 16_384,
  on() {},
  once() {},
  removeListener() {},
} as unknown as Socket;

/** Runs one GET through an app's callback and resolves with the status. */
export function call(callback: Callback, url: string): Promise<number> {
  const req = new IncomingMessage(socket);
  req.url = url;
  req.method = "GET";
  req.headers = { host: "127.0.0.1" };
  req.push(null);
  const res = new ServerResponse(req);
  return callback(req, res).then(() => res.statusCode);
}

/**
 * Runs `blocks` rounds of `block` requests per variant, alternating the order, and returns one line
 * per variant: CPU microseconds per request and the median over blocks of reference / this.
 */
export async function runPaired(
  variants: Readonly<Record<string, Variant>>,
  block: number,
  blocks: number,
): Promise<string[]> {
  const skip = Math.min(10, Math.floor(blocks / 10));
  const names = Object.keys(variants);
  const pairs = new Map<string, number[]>(names.map((n) => [n, []]));
  const totals = new Map<string, number>(names.map((n) => [n, 0]));
  for (let i = 0; i < blocks; i++) {
    const cost: Record<string, number> = {};
    for (const name of i % 2 ? [...names].reverse() : names) {
      const { callback, url } = variants[name]!;
      const t0 = process.cpuUsage();
      for (let j = 0; j < block; j++)
        if ((await call(callback, url)) !== 200) throw new E_BENCH_RUN(name, `${url} did not answer 200`);
      const d = process.cpuUsage(t0);
      cost[name] = d.user + d.system;
    }
    if (i < skip) continue; // warm-up blocks
    for (const name of names) {
      totals.set(name, totals.get(name)! + cost[name]!);
      pairs.get(name)!.push(cost[variants[name]!.reference]! / cost[name]!);
    }
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
  const out = [`in-process cost per request (${blocks - skip} blocks of ${block} requests each, alternating):`];
  for (const name of names) {
    const us = totals.get(name)! / ((blocks - skip) * block);
    out.push(
      `${name.padEnd(20)} ${us.toFixed(2).padStart(6)} us/req   reference / this, median of paired blocks: ${(median(pairs.get(name)!) * 100).toFixed(1)}%`,
    );
  }
  return out;
}

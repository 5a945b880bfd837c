// In-process request cost without the network: real IncomingMessage/ServerResponse objects handed to
// each app's request callback, in blocks that alternate between the apps, CPU time per request per
// app. On a busy shared machine this isolates what the framework itself costs per request.
//   node dist/micro.js [requests per block = 300] [blocks = 300]
// (`pnpm --filter bench run micro` builds nothing; build first.) Heap grows during a run because the
// response objects have no socket to flush to; every app pays the same for it.
import { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { createApp as createA } from "fw-a";
import { createApp as createB } from "fw-b";
import Koa from "koa";
import * as viewsA from "./servers/fw-a-views.js";
import * as viewsB from "./servers/fw-b-views.js";
import { benchConfig } from "./servers/framework.js";
import { SITE_ROOT } from "./servers/types.js";
import { JSON_BODY, TEXT_BODY } from "./workloads.js";

type Callback = (req: IncomingMessage, res: ServerResponse) => Promise<unknown>;

const socket = { encrypted: false, remoteAddress: "127.0.0.1", readableHighWaterMark: 16_384, on() {}, once() {}, removeListener() {} } as unknown as Socket;

/** Runs one GET through an app's callback and resolves with the status. */
function call(callback: Callback, url: string): Promise<number> {
  const req = new IncomingMessage(socket);
  req.url = url;
  req.method = "GET";
  req.headers = { host: "127.0.0.1" };
  req.push(null);
  const res = new ServerResponse(req);
  return callback(req, res).then(() => res.statusCode);
}

const bare = new Koa();
bare.use((ctx) => {
  if (ctx.path === "/text") {
    ctx.type = "text/plain; charset=utf-8";
    ctx.body = TEXT_BODY;
  } else if (ctx.path === "/api/data") {
    ctx.type = "application/json; charset=utf-8";
    ctx.body = JSON.stringify(JSON_BODY);
  }
});
const root = fileURLToPath(SITE_ROOT);
const a = await createA({ root, modules: [{ name: "main", exports: { Index: viewsA.Index, Items: viewsA.Items, Api: viewsA.Api } }], config: benchConfig("basic"), plugins: [] });
const b = await createB({ root, modules: [{ name: "main", exports: { Index: viewsB.Index, Items: viewsB.Items, Api: viewsB.Api } }], config: benchConfig("basic"), plugins: [] });
const asCallback = (fn: unknown) => fn as Callback;

/** Each variant: its callback, URL, and the bare-Koa variant it is compared with. */
const variants: Record<string, { callback: Callback; url: string; reference: string }> = {
  "bare Koa text": { callback: asCallback(bare.callback()), url: "/text", reference: "bare Koa text" },
  "bare Koa JSON": { callback: asCallback(bare.callback()), url: "/api/data", reference: "bare Koa JSON" },
  "fw-a text": { callback: asCallback(a.callback()), url: "/text/", reference: "bare Koa text" },
  "fw-a JSON": { callback: asCallback(a.callback()), url: "/api/data/", reference: "bare Koa JSON" },
  "fw-a params": { callback: asCallback(a.callback()), url: "/items/pair/42/7/", reference: "bare Koa text" },
  "fw-b text": { callback: asCallback(b.callback()), url: "/text", reference: "bare Koa text" },
  "fw-b JSON": { callback: asCallback(b.callback()), url: "/api/data", reference: "bare Koa JSON" },
  "fw-b params": { callback: asCallback(b.callback()), url: "/items/pair/42/7", reference: "bare Koa text" },
};

const block = Number(process.argv[2] ?? 300);
const blocks = Number(process.argv[3] ?? 300);
const skip = Math.min(10, Math.floor(blocks / 10));
const names = Object.keys(variants);
const pairs = new Map<string, number[]>(names.map((n) => [n, []]));
const totals = new Map<string, number>(names.map((n) => [n, 0]));
for (let i = 0; i < blocks; i++) {
  const cost: Record<string, number> = {};
  for (const name of i % 2 ? [...names].reverse() : names) {
    const { callback, url } = variants[name]!;
    const t0 = process.cpuUsage();
    for (let j = 0; j < block; j++) if ((await call(callback, url)) !== 200) throw new Error(`${name}: ${url} did not answer 200`);
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
console.log(`in-process cost per request (${blocks - skip} blocks of ${block} requests each, alternating):`);
for (const name of names) {
  const us = totals.get(name)! / ((blocks - skip) * block);
  console.log(`${name.padEnd(14)} ${us.toFixed(2).padStart(6)} us/req   bare Koa / this, median of paired blocks: ${(median(pairs.get(name)!) * 100).toFixed(1)}%`);
}
process.exit(0);

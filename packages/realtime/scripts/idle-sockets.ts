// Measures the memory an idle WebSocket costs on one process: an app with the realtime battery
// (memory:, a channel for each 100 sockets) listens on 127.0.0.1; a client process opens N
// sockets in batches, trying again after a refused or reset connection as a browser does, and
// subscribes each to its channel; the resident and heap memory after a full collection, before
// and after, give the cost per socket. Not a test: run it by hand, on a quiet machine if you can:
//
//   node --expose-gc --import ./scripts/ts-hooks.mjs packages/realtime/scripts/idle-sockets.ts [N]
//
// (from the repository's root; N is 5000 by default).
import { fork } from "node:child_process";
import { createServer } from "node:http";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { WebSocket } from "ws";

const CHANNEL_SIZE = 100;
const BATCH = 250;

/** The client side: opens `count` sockets to `url`, tells the parent once every one is subscribed. */
async function runClients(url: string, count: number): Promise<void> {
  let retries = 0;
  const sockets: WebSocket[] = [];
  const open = (index: number, attempt = 0): Promise<WebSocket> =>
    new Promise((resolve) => {
      const socket = new WebSocket(url, { origin: new URL(url.replace(/^ws/, "http")).origin });
      let subscribed = false;
      const again = () => {
        if (subscribed) return;
        subscribed = true; // once
        retries++;
        socket.terminate();
        // A browser waits before it tries again, longer each time.
        const wait = Math.min(5000, 100 * 2 ** attempt) * (0.5 + Math.random());
        setTimeout(() => void open(index, attempt + 1).then(resolve), wait);
      };
      socket.on("error", again);
      socket.on("close", again);
      socket.on("open", () =>
        socket.send(JSON.stringify({ type: "subscribe", channel: `rooms/${Math.floor(index / CHANNEL_SIZE)}` })),
      );
      socket.on("message", (data) => {
        if (subscribed) return;
        const frame = JSON.parse(String(data)) as { type: string };
        if (frame.type !== "subscribed") throw new Error(`socket ${index}: ${String(data)}`);
        subscribed = true;
        socket.removeAllListeners("close");
        socket.removeAllListeners("error");
        socket.on("error", () => undefined);
        resolve(socket);
      });
    });
  for (let start = 0; start < count; start += BATCH)
    sockets.push(
      ...(await Promise.all(Array.from({ length: Math.min(BATCH, count - start) }, (_, i) => open(start + i)))),
    );
  process.send!({ open: sockets.length, retries });
  process.on("message", () => process.exit(0));
}

const settle = async () => {
  for (let i = 0; i < 3; i++) {
    globalThis.gc!();
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapUsed, external: external + arrayBuffers };
};

/** The server side: the app, the client process, the figures. */
async function main(count: number): Promise<void> {
  if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc");
  const { startApp } = await import("../test/helpers.js");
  const { realtimeOf } = await import("../src/index.js");
  // The app's own server, listened with a backlog as large as the kernel allows (somaxconn):
  // host.listen() takes Node's default of 511.
  const app = await startApp({
    channels: { "rooms/:n": { public: true } },
    subscribeRate: { limit: count * 2, window: "1m" },
  });
  await app.server.close();
  const server = createServer(app.host.callback());
  server.on("upgrade", app.host.upgradeListener()!);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", 4096, resolve));
  const { port } = server.address() as { port: number };
  const before = await settle();
  const cpuBefore = process.cpuUsage();
  const started = Date.now();
  const child = fork(fileURLToPath(import.meta.url), ["--client", `ws://127.0.0.1:${port}/_events`, String(count)], {
    execArgv: ["--import", "./scripts/ts-hooks.mjs"],
  });
  const report = await new Promise<{ open: number; retries: number }>((resolve, reject) => {
    child.once("message", (message) => resolve(message as { open: number; retries: number }));
    child.once("exit", (code) => reject(new Error(`the client process ended (${code})`)));
  });
  const opened = Date.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const connections = realtimeOf(app.host)!.connections;
  const afterOpen = await settle();
  const load = loadavg().map((value) => value.toFixed(2));
  const per = (key: keyof typeof before) => ((afterOpen[key] - before[key]) / connections / 1024).toFixed(1);
  const mb = (value: number) => (value / 1048576).toFixed(1);
  console.log(
    JSON.stringify(
      {
        sockets: connections,
        clientRetries: report.retries,
        openedInMs: opened,
        serverCpuMs: Math.round((cpu.user + cpu.system) / 1000),
        rssMB: [mb(before.rss), mb(afterOpen.rss)],
        heapMB: [mb(before.heapUsed), mb(afterOpen.heapUsed)],
        externalMB: [mb(before.external), mb(afterOpen.external)],
        perSocketKB: { rss: per("rss"), heap: per("heapUsed"), external: per("external") },
        loadAverage: load,
        node: process.version,
      },
      null,
      2,
    ),
  );
  child.send("done");
  await new Promise((resolve) => child.once("exit", resolve));
  await app.close();
  server.close();
}

if (process.argv[2] === "--client") await runClients(process.argv[3]!, Number(process.argv[4]));
else await main(Number(process.argv[2] ?? 5000));

// Realtime the way users run it: a scaffolded fw-b app as two `start --workers 2` nodes and a
// `:work` process, behind the generated HAProxy and nginx, on one Redis for realtime
// (REALTIME_URL, a redis-server of the test's own) and another for sessions, cache and the queue.
// 1. 1,000 broadcasts made on both nodes and by a job reach subscribers on each node, through both
//    proxies and in Chromium's EventSource, and WebSocket subscribers on each node and through both
//    proxies, each once and in the same order everywhere.
// 2. A worker SIGKILLed and a SIGHUP rolling restart while streaming: every client reconnects and,
//    with Last-Event-ID, misses nothing and gets nothing twice.
// 3. The realtime Redis stopped 10 s: broadcasts answer 503 (E_REALTIME_UNAVAILABLE in the node's
//    log; production's answer carries no code), streams go on, and after recovery nothing is lost
//    or delivered twice.
// 4. 5,000 idle streams on one node (memory per stream printed), and a client that stops reading
//    is dropped without the node's memory growing by what was sent to it.
// Run with `pnpm --filter scale-out test:realtime` (several minutes: it builds the app).
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { startSmtp, type SmtpServer } from "@fwkit/test-servers";
import { launchChromium } from "@fwkit/test-servers/browser";
import { FW_B, productionEnv, runCommand, scaffoldApp } from "../src/apps.js";
import { startBalancer, startNode, startNodes, type AppNode, type Balancer } from "../src/cluster.js";
import { startWorker } from "../src/jobs.js";
import { startNginx, type NginxBalancer } from "../src/nginx.js";
import { eventually, type Proc } from "../src/processes.js";
import { addRealtime, Subscriber } from "../src/realtime.js";
import { SocketSubscriber } from "../src/realtime-socket.js";
import { createDatabase, startPrivateRedis, type Database, type PrivateRedis } from "../src/stores.js";

const IDLE_STREAMS = Number(process.env["REALTIME_IDLE_STREAMS"] ?? 5000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resident memory (bytes) of a process and its children (a node's primary and workers). */
function nodeRss(pid: number): number {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
  return [pid, ...children.map(Number)].reduce((sum, each) => {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${each}/status`, "utf8"))?.[1];
    return sum + Number(kb ?? 0) * 1024;
  }, 0);
}

/**
 * Heap and external memory (bytes, after a full collection) of each worker of a node, by pid:
 * asked until every worker has answered (the primary hands each new connection to one of them).
 */
async function workerMemory(node: AppNode, workers = 2): Promise<Map<number, number>> {
  const held = new Map<number, number>();
  for (let asked = 0; held.size < workers && asked < 50; asked++) {
    const { body } = await getJson(`${node.url}/live/memory`);
    held.set(Number(body["pid"]), Number(body["held"]));
  }
  assert.equal(held.size, workers, "every worker answered");
  return held;
}

async function getJson(url: string, ms = 30_000): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { headers: { connection: "close" }, signal: AbortSignal.timeout(ms) });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { text };
  }
  return { status: res.status, body };
}

/**
 * Broadcasts one message after another on feed/<channel> (alternating the nodes), until stopped;
 * `acked` are the numbers whose broadcast answered 200, `statuses` counts every answer.
 */
function broadcastLoop(nodes: readonly AppNode[], channel: string) {
  const acked: number[] = [];
  const statuses: Record<string, number> = {};
  const codes = new Set<string>();
  /** The first refused answer's body, for the log. */
  let refused = "";
  let running = true;
  let n = 0;
  const done = (async () => {
    while (running) {
      const node = nodes[n % nodes.length]!;
      const answer = await getJson(`${node.url}/live/one/${channel}/loop/${n}`).catch(
        (error: Error): { status: number; body: Record<string, unknown> } => ({
          status: 0,
          body: { error: String(error.cause ?? error) },
        }),
      );
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      if (answer.status === 200) acked.push(n);
      else {
        refused ||= JSON.stringify(answer.body).slice(0, 300);
        // The coded answer, in whatever shape the framework gives its JSON errors.
        for (const code of JSON.stringify(answer.body).match(/E_[A-Z0-9_]+/g) ?? []) codes.add(code);
        await sleep(100);
      }
      n++;
    }
  })();
  return {
    acked,
    statuses,
    codes,
    get refused() {
      return refused;
    },
    async stop() {
      running = false;
      await done;
    },
  };
}

/** Every acked number received once, all numbers in increasing order, none twice. */
function assertOnceInOrder(subscriber: Subscriber, channel: string, acked: readonly number[], label: string): void {
  const got = subscriber.sequence(channel, "loop");
  assert.equal(new Set(got).size, got.length, `${label}: nothing twice (${got.length} received)`);
  assert.deepEqual(
    got,
    [...got].sort((a, b) => a - b),
    `${label}: in order`,
  );
  const missing = acked.filter((n) => !got.includes(n));
  assert.deepEqual(missing, [], `${label}: every acknowledged broadcast received`);
}

describe("realtime on two nodes behind HAProxy and nginx, one Redis", () => {
  const dir = mkdtempSync(join(tmpdir(), "scale-out-realtime-"));
  let stores: PrivateRedis;
  let realtime: PrivateRedis;
  let db: Database;
  let smtp: SmtpServer | undefined;
  let root: string;
  let env: Record<string, string>;
  let nodes: AppNode[] = [];
  let worker: Proc | undefined;
  let haproxy: Balancer | undefined;
  let nginx: NginxBalancer | undefined;
  const subscribers: Subscriber[] = [];
  const sockets: SocketSubscriber[] = [];

  before(async () => {
    stores = await startPrivateRedis(join(dir, "stores"));
    realtime = await startPrivateRedis(join(dir, "realtime"));
    db = await createDatabase(`scaleout_rt_${process.pid}`);
    smtp = await startSmtp();
    env = {
      ...productionEnv({ dbUrl: db.url, redisUrl: stores.url, mailUrl: smtp.url }, `rt${process.pid}`),
      QUEUE_URL: `${stores.url}/3`,
      REALTIME_URL: `${realtime.url}/0`,
      // The memory figures are taken after a full collection (the view calls gc()).
      NODE_OPTIONS: "--expose-gc",
    };
    root = scaffoldApp(FW_B, dir);
    addRealtime(root);
    runCommand(FW_B, root, [FW_B.commands.build]);
    runCommand(FW_B, root, [FW_B.commands.migrate], env);
    nodes = await startNodes([startNode(FW_B, root, "r1", env), startNode(FW_B, root, "r2", env)]);
    worker = await startWorker(root, env, "rw1", 2);
    haproxy = await startBalancer(dir, root, FW_B, nodes);
    nginx = await startNginx(dir, root, FW_B, nodes);
  });

  after(async () => {
    for (const subscriber of subscribers) subscriber.close();
    for (const socket of sockets) socket.close();
    await haproxy?.stop();
    await nginx?.stop();
    await Promise.all([worker, ...nodes.map((node) => node.proc)].map((proc) => proc?.stop("SIGKILL")));
    await smtp?.close();
    await realtime?.stop();
    await stores?.stop();
    db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const track = (subscriber: Subscriber) => {
    subscribers.push(subscriber);
    return subscriber;
  };

  test("1,000 broadcasts from both nodes and a job worker: every subscriber (streams and WebSockets on each node, through HAProxy and nginx; Chromium) gets each once, in one order", async () => {
    const path = "/_events?channel=feed/shared";
    const socketOn = (url: string, origin = url) => {
      const socket = new SocketSubscriber(`${url.replace(/^http/, "ws")}/_events`, origin);
      sockets.push(socket);
      return socket;
    };
    const streams = {
      "node r1": track(new Subscriber(`${nodes[0]!.url}${path}`)),
      "node r2": track(new Subscriber(`${nodes[1]!.url}${path}`)),
      haproxy: track(new Subscriber(`${haproxy!.url}${path}`)),
      nginx: track(new Subscriber(`${nginx!.url}${path}`)),
    };
    const websockets = {
      "WebSocket on node r1": socketOn(nodes[0]!.url),
      "WebSocket on node r2": socketOn(nodes[1]!.url),
      "WebSocket through haproxy": socketOn(haproxy!.url),
      // nginx forwards $host, without the port: the app's origin as it sees it through nginx.
      "WebSocket through nginx": socketOn(nginx!.url, nginx!.url.replace(/:\d+$/, "")),
    };
    const listeners = { ...streams, ...websockets };
    await Promise.all([
      ...Object.values(streams).map((listener) => listener.open()),
      ...Object.values(websockets).map((socket) => socket.open(["feed/shared"])),
    ]);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      // Any page of the app's origin (through HAProxy's TLS-less port): the stream is same-origin.
      await page.goto(`${haproxy!.url}/readyz`);
      await page.evaluate(`(() => {
        window.got = [];
        const stream = new EventSource(${JSON.stringify(path)});
        stream.addEventListener("n", (event) => {
          const { data } = JSON.parse(event.data);
          window.got.push(data.source + ":" + data.n);
        });
        stream.addEventListener("ready", () => { window.ready = true; });
      })()`);
      await page.waitForFunction("window.ready === true", undefined, { timeout: 60_000 });

      const started = Date.now();
      const sent = await Promise.all([
        getJson(`${nodes[0]!.url}/live/run/shared/r1/400`, 240_000),
        getJson(`${nodes[1]!.url}/live/run/shared/r2/400`, 240_000),
        getJson(`${nodes[0]!.url}/live/job/shared/job/200`),
      ]);
      for (const answer of sent) assert.equal(answer.status, 200, JSON.stringify(answer.body));
      for (const [name, listener] of Object.entries(listeners))
        await listener.until(`${name} to receive 1,000`, () => listener.received.length >= 1000, 240_000);
      const socketsDone = Date.now() - started;
      await page.waitForFunction("window.got.length >= 1000", undefined, { timeout: 240_000 });
      const elapsed = Date.now() - started;
      const browserGot = (await page.evaluate("window.got")) as string[];
      const reference = listeners["node r1"].received.map((item) => `${item.source}:${item.n}`);
      for (const [name, listener] of Object.entries(listeners)) {
        assert.equal(listener.received.length, 1000, `${name}: nothing twice`);
        for (const [source, count] of [
          ["r1", 400],
          ["r2", 400],
          ["job", 200],
        ] as const)
          assert.deepEqual(
            listener.sequence("feed/shared", source),
            Array.from({ length: count }, (_, n) => n),
            `${name}: ${source}'s broadcasts once, in order`,
          );
        assert.deepEqual(
          listener.received.map((item) => `${item.source}:${item.n}`),
          reference,
          `${name}: the same order as on r1`,
        );
      }
      assert.deepEqual(browserGot, reference, "Chromium's EventSource: the same 1,000, once, in the same order");
      console.log(
        `realtime: 1,000 broadcasts (400 + 400 from the nodes, 200 from a job) reached ${Object.keys(listeners).length + 1} subscribers (${Object.keys(streams).length} streams, ${Object.keys(websockets).length} WebSockets, Chromium) once and in order in ${elapsed} ms (the Node clients all had them after ${socketsDone} ms)`,
      );
    } finally {
      await browser.close();
    }
  });

  test("a worker SIGKILLed and a SIGHUP rolling restart while streaming: every client resumes with Last-Event-ID, nothing missed or twice", async () => {
    const channel = "faults";
    const clients = Array.from({ length: 6 }, (_, index) =>
      track(new Subscriber(`${(index % 2 === 0 ? haproxy! : nginx!).url}/_events?channel=feed/${channel}`)),
    );
    await Promise.all(clients.map((client) => client.open()));
    const loop = broadcastLoop(nodes, channel);
    try {
      const waitAll = (count: number, what: string) =>
        Promise.all(
          clients.map((client) =>
            client.until(what, () => client.sequence(`feed/${channel}`, "loop").length >= count, 120_000),
          ),
        );
      await waitAll(20, "20 broadcasts before the kill");
      const { body } = await getJson(`${nodes[0]!.url}/ops/whoami`);
      process.kill(Number(body["pid"]), "SIGKILL");
      await nodes[0]!.proc.waitFor(/replaced the one that died/, "the killed worker's replacement");
      const afterKill = loop.acked.length;
      await eventually("20 more acknowledged broadcasts", async () =>
        loop.acked.length >= afterKill + 20 ? true : undefined,
      );
      nodes[1]!.proc.child.kill("SIGHUP");
      await nodes[1]!.proc.waitFor(/rolling restart done/, "r2's rolling restart");
      const afterRestart = loop.acked.length;
      await eventually("20 acknowledged broadcasts after the restart", async () =>
        loop.acked.length >= afterRestart + 20 ? true : undefined,
      );
    } finally {
      await loop.stop();
    }
    const last = loop.acked.at(-1)!;
    await Promise.all(
      clients.map((client, index) =>
        client.until(
          `client ${index} to receive up to ${last}`,
          () => client.sequence(`feed/${channel}`, "loop").includes(last),
          120_000,
        ),
      ),
    );
    for (const [index, client] of clients.entries())
      assertOnceInOrder(client, `feed/${channel}`, loop.acked, `client ${index}`);
    for (const client of clients) assert.deepEqual(client.resets, [], "no reset: everything was in the window");
    const reconnects = clients.map((client) => client.connects - 1);
    console.log(
      `realtime faults: ${loop.acked.length} broadcasts acknowledged (${JSON.stringify(loop.statuses)}), reconnects per client ${reconnects.join(", ")}, refused attempts ${clients.map((client) => client.refusals.length).join(", ")}`,
    );
    // The rolling restart ends every stream on r2 and the kill those on one r1 worker.
    assert.ok(
      reconnects.every((count) => count >= 0) && reconnects.reduce((a, b) => a + b, 0) >= 3,
      `clients reconnected: ${reconnects}`,
    );
  });

  test("the realtime Redis stopped 10 s: broadcasts answer 503 E_REALTIME_UNAVAILABLE, streams go on, nothing lost or twice after", async () => {
    const channel = "outage";
    const clients = nodes.map((node) => track(new Subscriber(`${node.url}/_events?channel=feed/${channel}`)));
    await Promise.all(clients.map((client) => client.open()));
    const loop = broadcastLoop(nodes, channel);
    let during: Record<string, number> = {};
    try {
      await eventually("10 acknowledged broadcasts", async () => (loop.acked.length >= 10 ? true : undefined));
      await realtime.stop();
      const before = { ...loop.statuses };
      await sleep(10_000);
      during = Object.fromEntries(
        Object.entries(loop.statuses).map(([status, count]) => [status, count - (before[status] ?? 0)]),
      );
      await realtime.start();
      const back = loop.acked.length;
      await eventually(
        "20 acknowledged broadcasts after Redis is back",
        async () => (loop.acked.length >= back + 20 ? true : undefined),
        120_000,
      );
    } finally {
      await loop.stop();
    }
    console.log(
      `realtime outage: answers during the 10 s ${JSON.stringify(during)}, codes ${[...loop.codes].join(", ")} (${loop.refused}); stream connects ${clients.map((client) => client.connects).join(", ")}`,
    );
    assert.ok((during["503"] ?? 0) > 0, `broadcasts during the outage answered 503: ${JSON.stringify(during)}`);
    assert.equal(loop.statuses["500"] ?? 0, 0, "no 500");
    // Production answers a 5xx without its code (the message is generic); the node's log names it.
    const logged = nodes.filter((node) => node.proc.output().includes("E_REALTIME_UNAVAILABLE")).length;
    assert.ok(
      loop.codes.has("E_REALTIME_UNAVAILABLE") || logged > 0,
      `the 503 is E_REALTIME_UNAVAILABLE: answered ${[...loop.codes]}, logged by ${logged} node(s)`,
    );
    const last = loop.acked.at(-1)!;
    await Promise.all(
      clients.map((client) =>
        client.until(`up to ${last}`, () => client.sequence(`feed/${channel}`, "loop").includes(last), 120_000),
      ),
    );
    for (const [index, client] of clients.entries())
      assertOnceInOrder(client, `feed/${channel}`, loop.acked, `node r${index + 1}`);
  });

  test("a client that stops reading is cut without the node keeping what was sent to it", async () => {
    for (const subscriber of subscribers.splice(0)) subscriber.close();
    const node = nodes[0]!;
    // The same broadcast first to a client that reads, so both measures below come after the work
    // itself ran once (its code compiled, its pools and connections grown).
    const reader = new Subscriber(`${node.url}/_events?channel=feed/slow`);
    await reader.open();
    const warm = await getJson(`${node.url}/live/run/slow/x/2000/16000`, 240_000);
    assert.equal(warm.status, 200, JSON.stringify(warm.body));
    await reader.until("the 2,000 messages", () => reader.received.length >= 2000, 240_000);
    reader.close();
    await sleep(2000);

    // A client that opens a stream and then never reads: its socket buffers fill, the node cuts it.
    const heldBefore = await workerMemory(node);
    const socket = connect(node.port, "127.0.0.1");
    let received = 0;
    let cut = false;
    let paused = false;
    socket.on("data", (chunk: Buffer) => {
      received += chunk.length;
      // The headers and the first event come; then the client reads nothing more.
      if (paused) return;
      paused = true;
      socket.pause();
    });
    socket.on("close", () => (cut = true));
    socket.on("error", () => (cut = true));
    socket.write(`GET /_events?channel=feed/slow HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
    await eventually("the slow stream to open", async () => (received > 0 ? true : undefined));
    // 2,000 messages of 16 KB (32 MB) toward a client that reads nothing.
    const sent = await getJson(`${node.url}/live/run/slow/x/2000/16000`, 240_000);
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    await node.proc.waitFor(/E_REALTIME_SLOW_CLIENT/, "the slow client dropped");
    const heldAfter = await workerMemory(node);
    // Reading again, the client gets what the kernel held, then the end the node gave its stream.
    socket.resume();
    await eventually("the slow client's connection to end", async () => (cut ? true : undefined));
    const growth = Math.max(...[...heldAfter].map(([pid, held]) => held - (heldBefore.get(pid) ?? 0)));
    const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
    console.log(
      `realtime slow consumer: ${received} bytes reached the client of the 32 MB broadcast to it; heap + external of each worker after a full GC, before -> after: ${[...heldAfter].map(([pid, held]) => `${mb(heldBefore.get(pid) ?? 0)} -> ${mb(held)} MB`).join(", ")}`,
    );
    // Cut, not kept for later: the client gets what the kernel held and at most realtime.maxBuffered more.
    assert.ok(received < 16 * 2 ** 20, `the client got ${received} bytes of the 32 MB`);
    assert.ok(growth < 8 * 2 ** 20, `no worker kept what was sent to the client (${growth} bytes more)`);
  });

  test(`${IDLE_STREAMS} idle streams on one node: memory per stream`, async () => {
    for (const subscriber of subscribers.splice(0)) subscriber.close();
    const node = nodes[0]!;
    const pid = node.proc.child.pid!;
    await sleep(2000);
    const before = nodeRss(pid);
    const idle: Subscriber[] = [];
    for (let start = 0; start < IDLE_STREAMS; start += 250) {
      const batch = Array.from(
        { length: Math.min(250, IDLE_STREAMS - start) },
        (_, index) => new Subscriber(`${node.url}/_events?channel=feed/idle-${(start + index) % 100}`),
      );
      idle.push(...batch);
      await Promise.all(batch.map((subscriber) => subscriber.open()));
    }
    await sleep(2000);
    const during = nodeRss(pid);
    const perStream = (during - before) / IDLE_STREAMS;
    console.log(
      `realtime idle streams: ${IDLE_STREAMS} open on one node (primary + 2 workers), RSS ${Math.round(before / 2 ** 20)} MB -> ${Math.round(during / 2 ** 20)} MB: ${(perStream / 1024).toFixed(1)} KB per stream`,
    );
    for (const subscriber of idle) subscriber.close();
    assert.ok(
      idle.every((subscriber) => subscriber.refusals.length === 0),
      "no stream refused",
    );
  });
});

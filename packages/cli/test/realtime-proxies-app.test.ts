// The realtime battery itself behind the generated HAProxy and nginx configs (Debian's haproxy and
// nginx), on a realtime.path of the app's own that the files follow: server-sent events over
// HTTP/2 with TLS (Node's node:http2 client; several streams on one connection, ids, heartbeats, a
// resume with Last-Event-ID), and WebSockets (the `ws` client) through each proxy: broadcasts
// arrive, the cookie crosses the proxy to the handshake, a cross-site Origin is refused before the
// upgrade, another user's private channel is refused, a client message reaches its handler.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, type ClientHttp2Session } from "node:http2";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect as tlsConnect } from "node:tls";
import { after, before, describe, test } from "node:test";
import { broadcast, type ReceiveInput } from "@fwkit/realtime";
import { WebSocket } from "ws";
import { within } from "./production-support.js";
import {
  startHaproxy,
  startNginx,
  startRealtimeApp,
  testCertificate,
  type RealtimeApp,
  type RunningProxy,
} from "./realtime-proxies-support.js";

const PATH = "/live/updates";
const WAIT_MS = 20_000;
const dir = mkdtempSync(join(tmpdir(), "fw-realtime-proxies-app-"));
let app: RealtimeApp;
let proxies: RunningProxy[] = [];

before(async () => {
  app = await startRealtimeApp(dir, PATH, {
    heartbeat: "1s",
    channels: {
      news: { public: true },
      "orders/:id": {
        authorize: ({ user, params }: { user?: { id: number }; params: { id: string } }) =>
          user?.id === Number(params.id),
      },
      "rooms/:room": {
        public: true,
        receive: {
          async say(data: unknown, input: ReceiveInput<{ id: number }>) {
            await input.broadcast("said", { text: (data as { text: string }).text, by: input.user?.id ?? null });
            return { ok: true, room: input.params["room"] };
          },
        },
      },
    },
  });
  const certs = testCertificate(dir);
  proxies = await Promise.all([startHaproxy(dir, app, certs), startNginx(dir, app, certs)]);
});

after(async () => {
  for (const proxy of proxies) proxy.child.kill("SIGKILL");
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** An HTTP/2 connection over TLS to the proxy's TLS port, for the host name localhost. */
function h2(proxy: RunningProxy): Promise<ClientHttp2Session> {
  const session = connect(`https://localhost:${proxy.tls}`, {
    createConnection: () =>
      tlsConnect({
        host: "127.0.0.1",
        port: proxy.tls,
        servername: "localhost",
        ALPNProtocols: ["h2"],
        rejectUnauthorized: false,
      }),
  });
  return within(
    `an HTTP/2 connection to ${proxy.name}`,
    new Promise((resolve, reject) => {
      session.once("connect", () => resolve(session));
      session.once("error", reject);
    }),
    WAIT_MS,
  );
}

/** A server-sent event stream on an HTTP/2 connection: its status, text so far, parsed events. */
function stream(session: ClientHttp2Session, query: string, headers: Record<string, string> = {}) {
  const req = session.request({ ":path": `${PATH}?${query}`, accept: "text/event-stream", ...headers });
  let text = "";
  let status = 0;
  const ready = new Promise<number>((resolve) =>
    req.on("response", (head) => {
      status = Number(head[":status"]);
      resolve(status);
    }),
  );
  req.setEncoding("utf8");
  req.on("data", (chunk: string) => (text += chunk));
  const events = () =>
    text
      .split("\n\n")
      .filter((block) => /^event: /m.test(block))
      .map((block) => ({
        event: /^event: (.*)$/m.exec(block)![1]!,
        id: /^id: (.*)$/m.exec(block)?.[1],
        data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "null") as { data?: { n?: number } },
      }));
  const until = async (what: string, check: () => boolean) =>
    within(
      what,
      (async () => {
        const end = Date.now() + WAIT_MS;
        while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
      })(),
      WAIT_MS,
      () => `; the stream got: ${text.slice(-500)}`,
    );
  return { ready, text: () => text, events, until, status: () => status, close: () => req.close() };
}

/** The numbers of the `posted` events a stream got, in order. */
const numbers = (events: ReturnType<ReturnType<typeof stream>["events"]>) =>
  events.filter((e) => e.event === "posted").map((e) => e.data.data!.n!);

describe("the realtime battery behind the generated balancers", () => {
  for (const name of ["haproxy", "nginx"]) {
    test(`${name}: event streams over HTTP/2 with TLS, several on one connection, with ids, heartbeats and a resume`, async () => {
      const proxy = proxies.find((p) => p.name === name)!;
      const session = await h2(proxy);
      try {
        assert.equal(session.alpnProtocol, "h2", `${name} speaks HTTP/2 on its TLS port`);
        const channel = `rooms/${name}-h2`;
        const streams = [0, 1, 2].map(() => stream(session, `channel=${channel}`));
        assert.deepEqual(await Promise.all(streams.map((s) => s.ready)), [200, 200, 200]);
        for (const s of streams) await s.until("ready", () => s.events().some((e) => e.event === "ready"));
        for (let n = 0; n < 5; n++) await broadcast(channel, "posted", { n });
        for (const s of streams) await s.until("five events", () => numbers(s.events()).length === 5);
        for (const s of streams) {
          assert.deepEqual(numbers(s.events()), [0, 1, 2, 3, 4], "once each, in order, on every stream");
          assert.ok(
            s.events().every((e) => /^\d+-\d+$/.test(e.id ?? "")),
            "every event has its id",
          );
        }
        // Silence: the app's heartbeat (1 s here) comes through, unbuffered.
        await streams[0]!.until("a heartbeat", () => streams[0]!.text().includes(": heartbeat"));
        // A reconnect with the id of the third event gets the two after it and the one made since.
        const third = streams[0]!.events().filter((e) => e.event === "posted")[2]!.id!;
        for (const s of streams) s.close();
        await broadcast(channel, "posted", { n: 5 });
        const resumed = stream(session, `channel=${channel}`, { "last-event-id": third });
        assert.equal(await resumed.ready, 200);
        await resumed.until("the missed events", () => numbers(resumed.events()).length === 3);
        assert.deepEqual(numbers(resumed.events()), [3, 4, 5]);
        // Another user's private channel, over HTTP/2 too: refused before the stream opens.
        const refused = stream(session, "channel=orders/8", { cookie: "user=7" });
        assert.equal(await refused.ready, 403);
        resumed.close();
      } finally {
        session.close();
      }
    });
  }

  for (const name of ["haproxy", "nginx"]) {
    test(`${name}: WebSockets through the proxy subscribe, get broadcasts, send to a handler, and are refused cross-site or for another user's channel`, async () => {
      const proxy = proxies.find((p) => p.name === name)!;
      // The origin the app sees through the proxy: HAProxy forwards the Host with its port, nginx
      // forwards $host (no port; on the ports 80 and 443 the deployment listens on, the same thing).
      const origin = name === "haproxy" ? `http://127.0.0.1:${proxy.plain}` : "http://127.0.0.1";
      const url = `ws://127.0.0.1:${proxy.plain}${PATH}`;
      const refusal = await handshake(url, { origin: "https://evil.example", headers: { cookie: "user=7" } });
      assert.equal(refusal.status, 403, `${name}: a cross-site handshake is refused before the upgrade`);
      assert.match(refusal.body, /E_REALTIME_ORIGIN_REFUSED/);
      const socket = await handshake(url, { origin, headers: { cookie: "user=7" } });
      assert.ok(socket.open, `${name}: the same-site handshake is upgraded (it got ${socket.status} ${socket.body})`);
      const { frames, send } = socket;
      const channel = `rooms/${name}-ws`;
      send({ type: "subscribe", channel });
      send({ type: "subscribe", channel: "orders/7" });
      send({ type: "subscribe", channel: "orders/8" });
      await waitFrames(frames, 2, (f) => f.type === "subscribed");
      const [forbidden] = await waitFrames(frames, 1, (f) => f.type === "error");
      assert.equal(forbidden!["channel"], "orders/8");
      assert.equal(forbidden!["code"], "E_REALTIME_FORBIDDEN");
      assert.equal(forbidden!["status"], 403);
      for (let n = 0; n < 20; n++) await broadcast(channel, "posted", { n });
      await broadcast("orders/7", "updated", { status: "shipped" });
      await broadcast("orders/8", "updated", { status: "not yours" });
      const got = await waitFrames(frames, 20, (f) => f.type === "event" && f["channel"] === channel);
      assert.deepEqual(
        got.map((f) => (f["data"] as { n: number }).n),
        Array.from({ length: 20 }, (_, n) => n),
      );
      await waitFrames(frames, 1, (f) => f.type === "event" && f["channel"] === "orders/7");
      // A message to the channel's handler: its reply, and what it broadcast, with the cookie's user.
      send({ type: "message", channel, event: "say", data: { text: "hi" }, ref: 1 });
      const [reply] = await waitFrames(frames, 1, (f) => f.type === "reply");
      assert.deepEqual(reply!["data"], { ok: true, room: `${name}-ws` });
      const [said] = await waitFrames(frames, 1, (f) => f.type === "event" && f["event"] === "said");
      assert.deepEqual(said!["data"], { text: "hi", by: 7 });
      assert.equal(
        frames.filter((f) => f["channel"] === "orders/8" && f.type === "event").length,
        0,
        "nothing of the refused channel",
      );
      socket.close();
      // Over TLS (wss://) on the port that offers HTTP/2: the handshake is HTTP/1.1's, upgraded.
      const secure = await handshake(`wss://127.0.0.1:${proxy.tls}${PATH}`, {
        origin: name === "haproxy" ? `https://localhost:${proxy.tls}` : "https://localhost",
        headers: { host: `localhost:${proxy.tls}`, cookie: "user=7" },
        tls: { servername: "localhost", rejectUnauthorized: false },
      });
      assert.ok(secure.open, `${name}: the wss handshake is upgraded (it got ${secure.status} ${secure.body})`);
      secure.send({ type: "subscribe", channel: "orders/7" });
      await waitFrames(secure.frames, 1, (f) => f.type === "subscribed");
      await broadcast("orders/7", "updated", { status: "delivered" });
      const [event] = await waitFrames(secure.frames, 1, (f) => f.type === "event");
      assert.deepEqual(event!["data"], { status: "delivered" });
      secure.close();
    });
  }
});

type Frame = Record<string, unknown> & { type: string };

/** A WebSocket handshake: the open socket's frames, or the refused handshake's status and body. */
function handshake(
  url: string,
  options: {
    origin: string;
    headers: Record<string, string>;
    tls?: { servername: string; rejectUnauthorized: boolean };
  },
) {
  const socket = new WebSocket(url, { origin: options.origin, headers: options.headers, ...options.tls });
  const frames: Frame[] = [];
  socket.on("message", (data) => frames.push(JSON.parse(String(data)) as Frame));
  return within(
    `the handshake on ${url}`,
    new Promise<{
      open: boolean;
      status: number;
      body: string;
      frames: Frame[];
      send: (frame: unknown) => void;
      close: () => void;
    }>((resolve, reject) => {
      const result = (open: boolean, status: number, body: string) =>
        resolve({
          open,
          status,
          body,
          frames,
          send: (f) => socket.send(JSON.stringify(f)),
          close: () => socket.close(),
        });
      socket.on("open", () => result(true, 101, ""));
      socket.on("unexpected-response", (_req, res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk));
        res.on("end", () => result(false, res.statusCode ?? 0, body));
      });
      socket.on("error", reject);
    }),
    WAIT_MS,
  );
}

/** Waits until `count` frames match; answers them. */
function waitFrames(frames: Frame[], count: number, match: (frame: Frame) => boolean): Promise<Frame[]> {
  return within(
    `${count} frames`,
    (async () => {
      const end = Date.now() + WAIT_MS;
      for (;;) {
        const found = frames.filter(match);
        if (found.length >= count || Date.now() > end) return found;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })(),
    WAIT_MS,
    () => `; frames so far: ${JSON.stringify(frames).slice(-800)}`,
  );
}

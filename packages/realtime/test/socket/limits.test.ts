// The realtime limits over WebSockets: the per-node connection cap counts both transports (503
// before the upgrade), the per-client subscription rate (an error frame per refused channel), a
// client that does not read is dropped once what waits for it passes maxBuffered, an idle socket
// gets pings, a shutdown closes every socket with 1012; the figures by transport and the broadcast
// latency go out on the realtime telemetry channel.
import assert from "node:assert/strict";
import diagnostics from "node:diagnostics_channel";
import { connect } from "node:net";
import { after, before, describe, test } from "node:test";
import { markDraining, resetDraining } from "@fwkit/koa-host/operations";
import { openEventStream } from "@fwkit/test-servers";
import { broadcast, realtimeOf } from "../../src/index.js";
import { channels, logged, startApp, type RunningApp } from "../helpers.js";
import { connectSocket, ofType, openSocket } from "./client.js";

const until = async (what: string, check: () => boolean) => {
  for (let i = 0; i < 1200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(check(), `timed out waiting for ${what}`);
};

describe("WebSocket caps", () => {
  let app: RunningApp;
  before(async () => {
    app = await startApp({ channels, maxConnections: 2, subscribeRate: { limit: 3, window: "1h" } });
  });
  after(() => app.close());

  test("the node's cap counts streams and sockets (503 before the upgrade); the rate refuses per channel", async () => {
    const stream = await openEventStream(`${app.url}/_events?channel=news`);
    await stream.waitFor(1, "ready");
    const socket = await connectSocket(`${app.url}/_events`, { "x-user": "1" });
    const full = await openSocket(`${app.url}/_events`);
    assert.ok("status" in full);
    assert.equal(full.status, 503);
    assert.match(full.body, /E_REALTIME_FULL/);
    stream.close();
    // 1 subscription so far (the stream's): 2 more are allowed, the third is refused with a wait.
    socket.send({ type: "subscribe", channel: "orders/1" });
    await socket.waitFor(1, ofType("subscribed", "orders/1"));
    socket.send({ type: "subscribe", channel: "news" });
    await socket.waitFor(1, ofType("subscribed", "news"));
    socket.send({ type: "subscribe", channel: "orders/2" });
    const [refused] = await socket.waitFor(1, ofType("error", "orders/2"));
    assert.equal(refused!["code"], "E_REALTIME_RATE_LIMITED");
    assert.equal(refused!["status"], 429);
    socket.close();
    await until("the connections to close", () => realtimeOf(app.host)!.connections === 0);
  });
});

/** A WebSocket handshake and one subscribe frame on a raw socket that then stops reading. */
async function stalledSocket(port: number, channel: string) {
  const socket = connect(port, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.write(
    `GET /_events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  await new Promise((resolve) => socket.once("data", resolve));
  const payload = Buffer.from(JSON.stringify({ type: "subscribe", channel }));
  // A masked text frame (a client's frames are masked); a zero mask leaves the payload as it is.
  socket.write(Buffer.concat([Buffer.from([0x81, 0x80 | payload.length, 0, 0, 0, 0]), payload]));
  // Reads until the subscription is confirmed; the caller then stops reading.
  let got = "";
  await new Promise<void>((resolve) => {
    const read = (chunk: Buffer) => {
      got += chunk.toString("latin1");
      if (!got.includes('"subscribed"')) return;
      socket.off("data", read);
      resolve();
    };
    socket.on("data", read);
  });
  return socket;
}

describe("WebSockets over time", () => {
  let app: RunningApp;
  const figures: Array<{
    connections: number;
    dropped: number;
    transports?: { sse: number; websocket: number };
    latencies?: number[];
  }> = [];
  const listen = (message: unknown) => figures.push(message as (typeof figures)[number]);
  before(async () => {
    diagnostics.subscribe("fwkit:realtime", listen);
    app = await startApp({ channels, maxBuffered: 65_536, heartbeat: "1s" });
  });
  after(async () => {
    diagnostics.unsubscribe("fwkit:realtime", listen);
    resetDraining();
    await app.close();
  });

  test("a client that does not read is dropped once 64 KiB wait for it, and counted", async () => {
    const { port } = new URL(app.url);
    const socket = await stalledSocket(Number(port), "news");
    socket.pause();
    await until("the socket to open", () => realtimeOf(app.host)!.connections === 1);
    const big = { text: "x".repeat(60_000) };
    for (let i = 0; i < 2000 && realtimeOf(app.host)!.connections > 0; i++) await broadcast("news", "posted", big);
    assert.equal(realtimeOf(app.host)!.connections, 0, "the slow socket was dropped");
    assert.ok(figures.some((figure) => figure.dropped > 0));
    assert.ok(
      logged.some((line) => line["code"] === "E_REALTIME_SLOW_CLIENT" && /WebSocket/.test(String(line["msg"]))),
    );
    socket.destroy();
  });

  test("figures by transport and the broadcast latency are reported; a shutdown closes sockets with 1012", async () => {
    const stream = await openEventStream(`${app.url}/_events?channel=news`);
    await stream.waitFor(1, "ready");
    const socket = await connectSocket(`${app.url}/_events`);
    socket.send({ type: "subscribe", channel: "news" });
    await socket.waitFor(1, ofType("subscribed", "news"));
    figures.length = 0;
    await broadcast("news", "posted", { n: 1 });
    await socket.waitFor(1, ofType("event", "news"));
    await until("the figures", () =>
      figures.some((figure) => figure.transports?.websocket === 1 && figure.transports.sse === 1),
    );
    await broadcast("news", "posted", { n: 2 });
    await until("a latency", () => figures.some((figure) => (figure.latencies?.length ?? 0) > 0));
    assert.ok(figures.flatMap((figure) => figure.latencies ?? []).every((seconds) => seconds >= 0));
    // An idle socket is pinged (a heartbeat each second here).
    let pinged = false;
    socket.socket.once("ping", () => {
      pinged = true;
    });
    await until("a ping", () => pinged);
    markDraining();
    assert.equal(await socket.closed(), 1012);
    await stream.waitForEnd();
    const refused = await openSocket(`${app.url}/_events`);
    assert.ok("status" in refused && refused.status === 503);
    resetDraining();
  });
});

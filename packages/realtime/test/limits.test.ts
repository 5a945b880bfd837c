// The realtime battery's limits: the per-node stream cap (503), the per-client subscription rate
// (429), a slow consumer dropped once what waits for it passes the bound, heartbeats on idle
// streams, and a shutdown that ends every stream with a retry hint.
import assert from "node:assert/strict";
import diagnostics from "node:diagnostics_channel";
import { connect } from "node:net";
import { after, before, describe, test } from "node:test";
import { markDraining, resetDraining } from "@fwkit/koa-host/operations";
import { openEventStream } from "@fwkit/test-servers";
import { broadcast, realtimeOf } from "../src/index.js";
import { channels, logged, startApp, type RunningApp } from "./helpers.js";

const until = async (what: string, check: () => boolean) => {
  for (let i = 0; i < 600 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(check(), `timed out waiting for ${what}`);
};

describe("realtime limits", () => {
  let app: RunningApp;
  before(async () => {
    app = await startApp({
      channels,
      maxConnections: 2,
      subscribeRate: { limit: 5, window: "1h" },
      maxBuffered: 65_536,
      maxMessageSize: 65_536,
      heartbeat: "1s",
      retry: "3s",
    });
  });
  after(() => app.close());

  test("a node with maxConnections streams answers 503 with a code; a client over its rate 429", async () => {
    const one = await openEventStream(`${app.url}/_events?channel=news`);
    const two = await openEventStream(`${app.url}/_events?channel=news`);
    await one.waitFor(1, "ready");
    await two.waitFor(1, "ready");
    const full = await openEventStream(`${app.url}/_events?channel=news`);
    assert.equal(full.status, 503);
    assert.match(full.body, /E_REALTIME_FULL/);
    assert.ok(full.headers.get("retry-after"));
    one.close();
    two.close();
    await until("the streams to close", () => realtimeOf(app.host)!.connections === 0);
    // 2 subscriptions so far (the refused stream was not counted): 3 more are allowed, then 429.
    const three = await openEventStream(`${app.url}/_events?channel=news&channel=orders/1`, { "x-user": "1" });
    three.close();
    const four = await openEventStream(`${app.url}/_events?channel=news`);
    four.close();
    const over = await openEventStream(`${app.url}/_events?channel=news`);
    assert.equal(over.status, 429);
    assert.match(over.body, /E_REALTIME_RATE_LIMITED/);
    assert.ok(Number(over.headers.get("retry-after")) > 0);
    await until("the streams to close", () => realtimeOf(app.host)!.connections === 0);
  });
});

describe("realtime streams over time", () => {
  let app: RunningApp;
  const figures: Array<{ connections: number; sent: number; dropped: number }> = [];
  const listen = (message: unknown) => figures.push(message as (typeof figures)[number]);
  before(async () => {
    diagnostics.subscribe("fwkit:realtime", listen);
    app = await startApp({ channels, maxBuffered: 65_536, heartbeat: "1s", retry: "3s" });
  });
  after(async () => {
    diagnostics.unsubscribe("fwkit:realtime", listen);
    resetDraining();
    await app.close();
  });

  test("a client that does not read is dropped once 64 KiB wait for it, and counted", async () => {
    const { port } = new URL(app.url);
    const socket = connect(Number(port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write("GET /_events?channel=news HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    // Read the headers, then stop reading: the kernel's buffers fill, then the process's.
    await new Promise((resolve) => socket.once("data", resolve));
    socket.pause();
    await until("the stream to open", () => realtimeOf(app.host)!.connections === 1);
    const big = { text: "x".repeat(60_000) };
    for (let i = 0; i < 2000 && realtimeOf(app.host)!.connections > 0; i++) await broadcast("news", "posted", big);
    assert.equal(realtimeOf(app.host)!.connections, 0, "the slow stream was dropped");
    assert.ok(figures.some((figure) => figure.dropped > 0));
    assert.ok(logged.some((line) => line["code"] === "E_REALTIME_SLOW_CLIENT"));
    socket.destroy();
  });

  test("an idle stream gets heartbeats; a shutdown ends it with a retry hint", async () => {
    const stream = await openEventStream(`${app.url}/_events?channel=news`);
    await stream.waitFor(1, "ready");
    await until("a heartbeat", () => stream.comments.includes(": heartbeat"));
    assert.ok(figures.some((figure) => figure.connections === 1));
    markDraining();
    await stream.waitForEnd();
    assert.deepEqual(stream.retries, [3000, 3000]);
    assert.equal(stream.events.at(-1)?.event, "shutdown");
    const refused = await openEventStream(`${app.url}/_events?channel=news`);
    assert.equal(refused.status, 503);
    resetDraining();
  });
});

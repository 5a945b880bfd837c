// The realtime battery on Redis: two app instances on one Redis (as two nodes) each deliver every
// broadcast made on either, once and in order per channel; a client resumes on the other node with
// Last-Event-ID; a Redis that stops answers broadcasts with a coded 503, and the streams get what
// was published once it is back, nothing twice.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { openEventStream, requireServer, serverUrls, startRedis, type RedisProcess } from "@fwkit/test-servers";
import { realtimeOf } from "../src/index.js";
import { channels, dropPrefix, startApp, uniquePrefix, type RunningApp } from "./helpers.js";

const numbers = (events: readonly { json: unknown }[]) =>
  events.map((event) => (event.json as { data: { n: number } }).data.n);

describe("realtime on redis:// across two nodes", () => {
  const prefix = uniquePrefix("nodes");
  let one: RunningApp;
  let two: RunningApp;
  before(async () => {
    await requireServer("redis");
    const config = { channels, prefix, replay: { size: 50 } };
    one = await startApp(config, { realtimeUrl: serverUrls.redis });
    two = await startApp(config, { realtimeUrl: serverUrls.redis });
  });
  after(async () => {
    await one?.close();
    await two?.close();
    await dropPrefix(serverUrls.redis, prefix);
  });

  test("subscribers on both nodes get every broadcast made on either, once and in order", async () => {
    const onOne = await openEventStream(`${one.url}/_events?channel=news&channel=orders/5`, { "x-user": "5" });
    const onTwo = await openEventStream(`${two.url}/_events?channel=news`);
    await onOne.waitFor(1, "ready");
    await onTwo.waitFor(1, "ready");
    const sent: Promise<string>[] = [];
    for (let n = 0; n < 300; n++) {
      const node = n % 2 === 0 ? one : two;
      // Concurrent broadcasts from both nodes: the order is Redis's, the same for every subscriber.
      sent.push(realtimeOf(node.host)!.broadcast("news", "posted", { n }));
    }
    const ids = await Promise.all(sent);
    await realtimeOf(two.host)!.broadcast("orders/5", "updated", { n: -1 });
    const gotOne = await onOne.waitFor(300, "posted");
    const gotTwo = await onTwo.waitFor(300, "posted");
    await onOne.waitFor(1, "updated");
    // Every message once, in the order of the ids Redis gave them, the same on both nodes.
    const order = ids.map((id, n) => ({ id, n })).sort((a, b) => (a.id < b.id ? -1 : 1));
    const byId = [...order].sort((a, b) => {
      const [am, as] = a.id.split("-").map(Number);
      const [bm, bs] = b.id.split("-").map(Number);
      return am! - bm! || as! - bs!;
    });
    assert.deepEqual(
      numbers(gotOne),
      byId.map((item) => item.n),
    );
    assert.deepEqual(numbers(gotTwo), numbers(gotOne));
    assert.equal(new Set(numbers(gotOne)).size, 300);
    onOne.close();
    onTwo.close();
  });

  test("a client resumes on the other node with Last-Event-ID, and is reset when too far behind", async () => {
    const first = await openEventStream(`${one.url}/_events?channel=news`);
    await first.waitFor(1, "ready");
    await realtimeOf(one.host)!.broadcast("news", "posted", { n: 1 });
    const [seen] = await first.waitFor(1, "posted");
    first.close();
    for (let n = 2; n <= 4; n++) await realtimeOf(one.host)!.broadcast("news", "posted", { n });
    const resumed = await openEventStream(`${two.url}/_events?channel=news`, { "Last-Event-ID": seen!.id! });
    assert.deepEqual(numbers(await resumed.waitFor(3, "posted")), [2, 3, 4]);
    assert.equal(resumed.events.filter((event) => event.event === "reset").length, 0);
    resumed.close();
    for (let n = 0; n < 60; n++) await realtimeOf(two.host)!.broadcast("news", "posted", { n });
    const late = await openEventStream(`${one.url}/_events?channel=news`, { "Last-Event-ID": seen!.id! });
    const [reset] = await late.waitFor(1, "reset");
    assert.deepEqual(reset!.json, { channel: "news" });
    late.close();
  });
});

describe("realtime while Redis is away (a redis-server of the test's own)", () => {
  let redis: RedisProcess;
  let app: RunningApp;
  before(async () => {
    redis = await startRedis();
    app = await startApp({ channels, prefix: uniquePrefix("outage") }, { realtimeUrl: redis.url });
  });
  after(async () => {
    await app?.close();
    await redis?.close();
  });

  test("a broadcast answers a coded 503 while Redis is stopped; the stream continues after, nothing twice", async () => {
    const stream = await openEventStream(`${app.url}/_events?channel=news`);
    await stream.waitFor(1, "ready");
    await realtimeOf(app.host)!.broadcast("news", "posted", { n: 1 });
    await stream.waitFor(1, "posted");
    await redis.stop();
    await assert.rejects(realtimeOf(app.host)!.broadcast("news", "posted", { n: 2 }), {
      code: "E_REALTIME_UNAVAILABLE",
      status: 503,
    });
    await redis.start();
    // The data went with the server (nothing saved): once this node listens again it reports the
    // gap, and a client that gets the reset reloads what it shows (a message stored before the
    // reset is in that reload, not sent again); what is broadcast after it comes as an event.
    await stream.waitFor(1, "reset");
    let sent = false;
    for (let attempt = 0; attempt < 200 && !sent; attempt++) {
      try {
        await realtimeOf(app.host)!.broadcast("news", "posted", { n: 3 });
        sent = true;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    assert.ok(sent, "broadcasts work again once Redis is back");
    const got = await stream.waitFor(2, "posted");
    assert.deepEqual(numbers(got), [1, 3]);
    assert.equal(stream.ended, false);
    stream.close();
  });
});

// The realtime battery on memory: an SSE stream from Node receives each broadcast once and in
// order, resumes with Last-Event-ID (or gets reset when too far behind), and refuses what a
// client may not have with a coded answer.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { openEventStream } from "@fwkit/test-servers";
import { z } from "zod";
import { broadcast, realtimeOf } from "../src/index.js";
import { channels, logged, startApp, type RunningApp } from "./helpers.js";

describe("realtime on memory:", () => {
  let app: RunningApp;
  before(async () => {
    app = await startApp({
      channels: { ...channels, "scores/:game": { public: true, schema: z.object({ score: z.number() }) } },
      replay: { size: 5 },
      maxChannels: 3,
      maxMessageSize: 100,
    });
  });
  after(() => app.close());

  test("a stream gets every broadcast once, in order, with the headers proxies need", async () => {
    const stream = await openEventStream(`${app.url}/_events?channel=news`);
    assert.equal(stream.status, 200);
    assert.equal(stream.headers.get("content-type"), "text/event-stream; charset=utf-8");
    assert.equal(stream.headers.get("x-accel-buffering"), "no");
    assert.match(stream.headers.get("cache-control") ?? "", /no-cache/);
    assert.equal(stream.headers.get("content-encoding"), null);
    await stream.waitFor(1, "ready");
    for (let i = 0; i < 200; i++) await broadcast("news", "posted", { n: i });
    const got = await stream.waitFor(200, "posted");
    assert.deepEqual(
      got.map((event) => (event.json as { data: { n: number } }).data.n),
      Array.from({ length: 200 }, (_, i) => i),
    );
    assert.ok(got.every((event) => (event.json as { channel: string }).channel === "news" && event.id));
    assert.equal(new Set(got.map((event) => event.id)).size, 200);
    assert.deepEqual(stream.retries, [2000]);
    stream.close();
  });

  test("a reconnect with Last-Event-ID gets what it missed, and reset when too far behind", async () => {
    const first = await openEventStream(`${app.url}/_events?channel=news&channel=orders/7`, { "x-user": "7" });
    await first.waitFor(1, "ready");
    await broadcast("news", "posted", { n: "a" });
    const [seen] = await first.waitFor(1, "posted");
    first.close();
    await broadcast("news", "posted", { n: "b" });
    await broadcast("orders/7", "updated", { n: "c" });
    const resumed = await openEventStream(`${app.url}/_events?channel=news&channel=orders/7`, {
      "x-user": "7",
      "Last-Event-ID": seen!.id!,
    });
    const missed = await resumed.waitFor(2, undefined);
    const names = (await resumed.waitFor(3)).filter((event) => event.event !== "ready");
    assert.deepEqual(
      names.map((event) => [event.event, (event.json as { data: { n: string } }).data.n]),
      [
        ["posted", "b"],
        ["updated", "c"],
      ],
    );
    assert.ok(missed.length >= 2);
    resumed.close();
    // More than the window (5) since that position: the client is told to reload.
    for (let i = 0; i < 8; i++) await broadcast("news", "posted", { n: i });
    const late = await openEventStream(`${app.url}/_events?channel=news&channel=orders/7`, {
      "x-user": "7",
      "Last-Event-ID": seen!.id!,
    });
    const [reset] = await late.waitFor(1, "reset");
    assert.deepEqual(reset!.json, { channel: "news" });
    late.close();
  });

  test("another user's private channel is 403, coded, and logged without payload", async () => {
    const refused = await openEventStream(`${app.url}/_events?channel=orders/8`, { "x-user": "7" });
    assert.equal(refused.status, 403);
    assert.match(refused.body, /E_REALTIME_FORBIDDEN/);
    const anonymous = await openEventStream(`${app.url}/_events?channel=orders/8`);
    assert.equal(anonymous.status, 403);
    assert.ok(logged.some((line) => line["code"] === "E_REALTIME_FORBIDDEN" && line["channel"] === "orders/8"));
  });

  test("what a client gets wrong is a 4xx with a code", async () => {
    const none = await openEventStream(`${app.url}/_events`);
    assert.equal(none.status, 400);
    assert.match(none.body, /E_REALTIME_SUBSCRIPTION_INVALID/);
    const many = await openEventStream(`${app.url}/_events?channel=news,scores/1,scores/2,scores/3`);
    assert.equal(many.status, 400);
    const unknown = await openEventStream(`${app.url}/_events?channel=nope`);
    assert.equal(unknown.status, 404);
    assert.match(unknown.body, /E_REALTIME_CHANNEL_UNKNOWN/);
    const bad = await openEventStream(`${app.url}/_events?channel=a%20b`);
    assert.equal(bad.status, 400);
    assert.match(bad.body, /E_REALTIME_CHANNEL_INVALID/);
  });

  test("a broadcast is checked: schema, size, channel, event name", async () => {
    await assert.rejects(broadcast("scores/1", "scored", { score: "x" }), { code: "E_REALTIME_PAYLOAD_INVALID" });
    await assert.rejects(broadcast("news", "posted", { text: "x".repeat(200) }), {
      code: "E_REALTIME_MESSAGE_TOO_LARGE",
      status: 413,
    });
    await assert.rejects(broadcast("nope", "posted", {}), { code: "E_REALTIME_CHANNEL_UNKNOWN" });
    await assert.rejects(broadcast("news", "reset", {}), { code: "E_REALTIME_PAYLOAD_INVALID" });
    assert.match(await broadcast("scores/1", "scored", { score: 3 }), /^\d+-\d+$/);
    assert.ok(realtimeOf(app.host)?.hub?.recorded?.some((item) => item.channel === "scores/1"));
  });
});

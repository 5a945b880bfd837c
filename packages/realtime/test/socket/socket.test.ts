// WebSockets on the app's port, from Node's `ws` client: the same channels as the event stream,
// subscribed by message, each broadcast once and in order with its id, resumed from a last id;
// a cross-site handshake is refused before the upgrade; another user's private channel is refused
// per subscription; messages to a channel reach its handler (a class or an object of functions);
// what a client gets wrong is an error frame, never a crash.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { broadcast, ChannelHandler, realtimeOf } from "../../src/index.js";
import { channels, logged, startApp, type RunningApp } from "../helpers.js";
import { connectSocket, ofType, openSocket } from "./client.js";

class Room extends ChannelHandler<{ id: number }> {
  async say(data: unknown) {
    const text = (data as { text?: unknown }).text;
    if (typeof text !== "string")
      throw Object.assign(new Error("say needs a text"), { code: "E_ROOM_TEXT", status: 422 });
    await this.input.broadcast("said", { text, by: this.input.user?.id ?? null });
    return { ok: true, room: this.input.params["room"] };
  }

  fail() {
    throw new Error("a bug in the handler");
  }
}

describe("realtime over WebSockets", () => {
  let app: RunningApp;
  before(async () => {
    app = await startApp({
      channels: {
        ...channels,
        "rooms/:room": { public: true, receive: Room },
        "votes/:poll": { public: true, receive: { vote: (data: unknown) => ({ counted: data }) } },
      },
      replay: { size: 5 },
      maxMessageSize: 2048,
      allowedOrigins: ["https://admin.example.com"],
    });
  });
  after(() => app.close());

  test("a subscription gets every broadcast once, in order, with ids, and resumes from a last id", async () => {
    const client = await connectSocket(`${app.url}/_events`);
    client.send({ type: "subscribe", channel: "news" });
    const [subscribed] = await client.waitFor(1, ofType("subscribed", "news"));
    assert.match(String(subscribed!["id"]), /^\d+-\d+$/);
    for (let n = 0; n < 100; n++) await broadcast("news", "posted", { n });
    const got = await client.waitFor(100, ofType("event", "news"));
    assert.deepEqual(
      got.map((frame) => (frame["data"] as { n: number }).n),
      Array.from({ length: 100 }, (_, n) => n),
    );
    assert.equal(new Set(got.map((frame) => frame["id"])).size, 100);
    assert.ok(got.every((frame) => frame["event"] === "posted"));
    const seen = got[97]!["id"];
    client.close();
    assert.equal(await client.closed(), 1005);
    // Two missed broadcasts after the 98th: a new socket resumes from its id.
    const again = await connectSocket(`${app.url}/_events`);
    again.send({ type: "subscribe", channel: "news", lastId: seen });
    const missed = await again.waitFor(2, ofType("event", "news"));
    assert.deepEqual(
      missed.map((frame) => (frame["data"] as { n: number }).n),
      [98, 99],
    );
    // Further back than the window (5): a reset, as on the event stream.
    again.send({ type: "unsubscribe", channel: "news" });
    await again.waitFor(1, ofType("unsubscribed", "news"));
    again.send({ type: "subscribe", channel: "news", lastId: got[10]!["id"] });
    await again.waitFor(1, ofType("reset", "news"));
    again.close();
  });

  test("a cross-site handshake is refused with 403 before the upgrade, and logged without payload", async () => {
    const refused = await openSocket(`${app.url}/_events`, { Origin: "https://evil.example" });
    assert.ok("status" in refused);
    assert.equal(refused.status, 403);
    assert.match(refused.body, /E_REALTIME_ORIGIN_REFUSED/);
    const none = await openSocket(`${app.url}/_events`, { Origin: "" });
    assert.ok("status" in none && none.status === 403);
    assert.ok(
      logged.some((line) => line["code"] === "E_REALTIME_ORIGIN_REFUSED" && line["origin"] === "https://evil.example"),
    );
    // An origin listed in realtime.allowedOrigins may connect.
    const allowed = await connectSocket(`${app.url}/_events`, { Origin: "https://admin.example.com" });
    allowed.close();
  });

  test("another user's private channel is refused per subscription; the socket stays usable", async () => {
    const client = await connectSocket(`${app.url}/_events`, { "x-user": "7" });
    client.send({ type: "subscribe", channel: "orders/8" });
    const [refused] = await client.waitFor(1, ofType("error", "orders/8"));
    assert.equal(refused!["code"], "E_REALTIME_FORBIDDEN");
    assert.equal(refused!["status"], 403);
    assert.ok(logged.some((line) => line["code"] === "E_REALTIME_FORBIDDEN" && line["transport"] === "websocket"));
    client.send({ type: "subscribe", channel: "orders/7" });
    await client.waitFor(1, ofType("subscribed", "orders/7"));
    await broadcast("orders/8", "updated", { secret: true });
    await broadcast("orders/7", "updated", { mine: true });
    const [event] = await client.waitFor(1, ofType("event", "orders/7"));
    assert.deepEqual(event!["data"], { mine: true });
    assert.equal(client.frames.filter(ofType("event", "orders/8")).length, 0);
    client.close();
  });

  test("messages reach the channel's handler, a class or an object of functions, with a reply", async () => {
    const client = await connectSocket(`${app.url}/_events`, { "x-user": "3" });
    client.send({ type: "subscribe", channel: "rooms/lobby" });
    client.send({ type: "subscribe", channel: "votes/1" });
    await client.waitFor(1, ofType("subscribed", "votes/1"));
    client.send({ type: "message", channel: "rooms/lobby", event: "say", data: { text: "hi" }, ref: 1 });
    const [reply] = await client.waitFor(1, ofType("reply", "rooms/lobby"));
    assert.deepEqual(reply, {
      type: "reply",
      channel: "rooms/lobby",
      event: "say",
      ref: 1,
      data: { ok: true, room: "lobby" },
    });
    const [said] = await client.waitFor(1, ofType("event", "rooms/lobby"));
    assert.deepEqual(said!["data"], { text: "hi", by: 3 });
    client.send({ type: "message", channel: "votes/1", event: "vote", data: "yes", ref: "v" });
    const [counted] = await client.waitFor(1, ofType("reply", "votes/1"));
    assert.deepEqual(counted!["data"], { counted: "yes" });
    // A handler's 4xx is the reply's error; a failure is a 500 without details, logged.
    client.send({ type: "message", channel: "rooms/lobby", event: "say", data: {}, ref: 2 });
    client.send({ type: "message", channel: "rooms/lobby", event: "fail", ref: 3 });
    const errors = await client.waitFor(2, ofType("error", "rooms/lobby"));
    assert.deepEqual(
      errors.map((frame) => [frame["ref"], frame["code"], frame["status"]]),
      [
        [2, "E_ROOM_TEXT", 422],
        [3, "E_REALTIME_HANDLER_FAILED", 500],
      ],
    );
    assert.doesNotMatch(String(errors[1]!["message"]), /a bug/);
    client.close();
  });

  test("what a client gets wrong is an error frame naming it; an oversized frame closes with 1009", async () => {
    const client = await connectSocket(`${app.url}/_events`);
    const wrongs: unknown[] = [
      "not json",
      "[1]",
      { type: "shout", channel: "news" },
      { type: "subscribe" },
      { type: "subscribe", channel: "nope" },
      { type: "subscribe", channel: "a b" },
      { type: "subscribe", channel: "news", lastId: "yesterday" },
      { type: "message", channel: "news", event: "say" },
      { type: "unsubscribe", channel: "news" },
    ];
    for (const wrong of wrongs) client.send(wrong);
    client.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    const errors = await client.waitFor(wrongs.length + 1, ofType("error"));
    assert.deepEqual(
      errors.map((frame) => frame["code"]),
      [
        "E_REALTIME_MESSAGE_INVALID",
        "E_REALTIME_MESSAGE_INVALID",
        "E_REALTIME_MESSAGE_INVALID",
        "E_REALTIME_MESSAGE_INVALID",
        "E_REALTIME_CHANNEL_UNKNOWN",
        "E_REALTIME_CHANNEL_INVALID",
        "E_REALTIME_MESSAGE_INVALID",
        "E_REALTIME_NOT_SUBSCRIBED",
        "E_REALTIME_NOT_SUBSCRIBED",
        "E_REALTIME_MESSAGE_INVALID",
      ],
    );
    assert.ok(errors.every((frame) => typeof frame["message"] === "string" && Number(frame["status"]) < 500));
    // Over realtime.maxMessageSize (2048 bytes): ws closes the socket with 1009.
    client.send({ type: "subscribe", channel: "x".repeat(4000) });
    assert.equal(await client.closed(), 1009);
    // The node goes on serving.
    const next = await connectSocket(`${app.url}/_events`);
    next.send({ type: "subscribe", channel: "news" });
    await next.waitFor(1, ofType("subscribed", "news"));
    next.close();
    assert.ok(realtimeOf(app.host));
  });
});

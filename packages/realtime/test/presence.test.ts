// Presence channels on two app instances over one Redis (as two nodes), over WebSockets and event
// streams: a subscriber gets the members on subscribing (itself included); a member's first
// connection broadcasts presence:join and its last presence:leave, so a user connected twice is
// one member; a node that dies without a word has its members removed, and their leave broadcast,
// by the other node once presenceTtl has passed. On memory: the same rules in one process.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { openEventStream, requireServer, serverUrls } from "@fwkit/test-servers";
import { realtimeOf } from "../src/index.js";
import { dropPrefix, startApp, uniquePrefix, type RunningApp } from "./helpers.js";
import { connectSocket, ofType, type Frame, type TestSocket } from "./socket/client.js";

const channels = {
  news: { public: true },
  "rooms/:room": {
    presence: true,
    authorize: ({ user }: { user?: { id: number } }) => (user ? { id: user.id, name: `user ${user.id}` } : false),
  },
};

const ids = (members: unknown) => (members as Array<{ id: number }>).map((member) => member.id).sort();
/** The presence events a socket got, as "join 2" / "leave 2". */
const presenceOf = (socket: TestSocket) =>
  socket.frames
    .filter((frame) => frame.type === "event" && String(frame["event"]).startsWith("presence:"))
    .map((frame) => `${String(frame["event"]).slice(9)} ${(frame["data"] as { id: number }).id}`);
const presenceEvents = (socket: TestSocket, count: number) =>
  socket.waitFor(count, (frame: Frame) => frame.type === "event" && String(frame["event"]).startsWith("presence:"));

async function join(
  app: RunningApp,
  user: number,
  channel = "rooms/1",
): Promise<{ socket: TestSocket; members: unknown }> {
  const socket = await connectSocket(`${app.url}/_events`, { "x-user": String(user) });
  socket.send({ type: "subscribe", channel });
  const [subscribed] = await socket.waitFor(1, ofType("subscribed", channel));
  return { socket, members: subscribed!["members"] };
}

describe("presence across two nodes on Redis", () => {
  const prefix = uniquePrefix("presence");
  let one: RunningApp;
  let two: RunningApp;
  before(async () => {
    await requireServer("redis");
    const config = { channels, prefix, presenceTtl: "3s" };
    one = await startApp(config, { realtimeUrl: serverUrls.redis });
    two = await startApp(config, { realtimeUrl: serverUrls.redis });
  });
  after(async () => {
    await one?.close();
    await two?.close();
    await dropPrefix(serverUrls.redis, prefix);
  });

  test("members on subscribing, one join and one leave per member over sockets and streams on both nodes", async () => {
    const first = await join(one, 1);
    assert.deepEqual(first.members, [{ id: 1, name: "user 1" }]);
    // User 2 on the other node, by an event stream, then by a socket on the first node too.
    const stream = await openEventStream(`${two.url}/_events?channel=rooms/1`, { "x-user": "2" });
    const [here] = await stream.waitFor(1, "presence:here");
    const listed = here!.json as { channel: string; data: Array<{ id: number }> };
    assert.equal(listed.channel, "rooms/1");
    assert.deepEqual(
      [...listed.data].sort((a, b) => a.id - b.id),
      [
        { id: 1, name: "user 1" },
        { id: 2, name: "user 2" },
      ],
    );
    const again = await join(one, 2);
    assert.deepEqual(ids(again.members), [1, 2]);
    const third = await join(two, 3);
    assert.deepEqual(ids(third.members), [1, 2, 3]);
    // Its own join comes too; user 2's second connection made no join: the next join is user 3's.
    await presenceEvents(first.socket, 3);
    assert.deepEqual(presenceOf(first.socket), ["join 1", "join 2", "join 3"]);
    const joins = await stream.waitFor(2, "presence:join");
    assert.deepEqual(joins[1]!.json, { channel: "rooms/1", data: { id: 3, name: "user 3" } });
    // User 2 leaves once both its connections are closed.
    stream.close();
    again.socket.close();
    await presenceEvents(first.socket, 4);
    third.socket.close();
    await presenceEvents(first.socket, 5);
    assert.deepEqual(presenceOf(first.socket), ["join 1", "join 2", "join 3", "leave 2", "leave 3"]);
    first.socket.close();
  });

  test("a subscription the channel's authorize refuses is 403; a broadcast may not use presence: events", async () => {
    const socket = await connectSocket(`${one.url}/_events`);
    socket.send({ type: "subscribe", channel: "rooms/2" });
    const [refused] = await socket.waitFor(1, ofType("error"));
    assert.equal(refused!["code"], "E_REALTIME_FORBIDDEN");
    socket.close();
    await assert.rejects(realtimeOf(one.host)!.broadcast("rooms/2", "presence:join", { id: 9 }), {
      code: "E_REALTIME_PAYLOAD_INVALID",
    });
  });

  test("a node that dies without a word: the other node removes its members after presenceTtl and broadcasts their leave", async () => {
    const watcher = await join(one, 1, "rooms/3");
    const doomed = await join(two, 5, "rooms/3");
    assert.deepEqual(ids(doomed.members), [1, 5]);
    await presenceEvents(watcher.socket, 2);
    // The second node loses Redis for good: it neither refreshes its members nor says they left.
    await realtimeOf(two.host)!.hub!.backend.close();
    doomed.socket.close();
    await presenceEvents(watcher.socket, 3);
    assert.deepEqual(presenceOf(watcher.socket), ["join 1", "join 5", "leave 5"]);
    const later = await join(one, 6, "rooms/3");
    assert.deepEqual(ids(later.members), [1, 6]);
    watcher.socket.close();
    later.socket.close();
  });
});

describe("presence on memory:", () => {
  let app: RunningApp;
  before(async () => {
    app = await startApp({ channels });
  });
  after(() => app.close());

  test("a user connected twice is one member; the last connection's close is its leave", async () => {
    const first = await join(app, 1);
    const a = await join(app, 2);
    const b = await join(app, 2);
    assert.deepEqual(ids(b.members), [1, 2]);
    a.socket.send({ type: "unsubscribe", channel: "rooms/1" });
    await a.socket.waitFor(1, ofType("unsubscribed"));
    b.socket.close();
    await presenceEvents(first.socket, 3);
    assert.deepEqual(presenceOf(first.socket), ["join 1", "join 2", "leave 2"]);
    for (const socket of [first.socket, a.socket]) socket.close();
  });
});

// WebSockets on two app instances over one Redis (as two nodes): a socket on each gets every
// broadcast made on either, once and in order, and a socket resumes on the other node from the
// last id it got.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { requireServer, serverUrls } from "@fwkit/test-servers";
import { realtimeOf } from "../../src/index.js";
import { channels, dropPrefix, startApp, uniquePrefix, type RunningApp } from "../helpers.js";
import { connectSocket, ofType, type Frame } from "./client.js";

const numbers = (frames: readonly Frame[]) => frames.map((frame) => (frame["data"] as { n: number }).n);

const prefix = uniquePrefix("sockets");
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

test("sockets on both nodes get every broadcast made on either, once and in order; a socket resumes on the other node", async () => {
  const onOne = await connectSocket(`${one.url}/_events`);
  const onTwo = await connectSocket(`${two.url}/_events`);
  for (const socket of [onOne, onTwo]) socket.send({ type: "subscribe", channel: "news" });
  await onOne.waitFor(1, ofType("subscribed"));
  await onTwo.waitFor(1, ofType("subscribed"));
  const ids = await Promise.all(
    Array.from({ length: 200 }, (_, n) =>
      realtimeOf((n % 2 === 0 ? one : two).host)!.broadcast("news", "posted", { n }),
    ),
  );
  const gotOne = await onOne.waitFor(200, ofType("event", "news"));
  const gotTwo = await onTwo.waitFor(200, ofType("event", "news"));
  assert.deepEqual(numbers(gotTwo), numbers(gotOne));
  assert.equal(new Set(numbers(gotOne)).size, 200);
  assert.deepEqual(
    gotOne.map((frame) => frame["id"]),
    [...ids].sort((a, b) => {
      const [am, as] = a.split("-").map(Number);
      const [bm, bs] = b.split("-").map(Number);
      return am! - bm! || as! - bs!;
    }),
  );
  const seen = gotOne.at(-1)!["id"];
  onOne.close();
  for (let n = 200; n < 203; n++) await realtimeOf(one.host)!.broadcast("news", "posted", { n });
  const resumed = await connectSocket(`${two.url}/_events`);
  resumed.send({ type: "subscribe", channel: "news", lastId: seen });
  assert.deepEqual(numbers(await resumed.waitFor(3, ofType("event", "news"))), [200, 201, 202]);
  assert.equal(resumed.frames.filter(ofType("reset")).length, 0);
  resumed.close();
  onTwo.close();
});

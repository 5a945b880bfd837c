// The realtime battery's config is checked at start-up: an unknown key names the known ones, a
// wrong value names its key, a channel is public or private only when it says so, and without
// declared channels the battery installs nothing.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readRealtimeConfig } from "../src/index.js";
import { startApp } from "./helpers.js";

const news = { news: { public: true } };

test("no channels declared: realtime stays off, and broadcast says so", async () => {
  assert.equal(readRealtimeConfig({}), undefined);
  assert.equal(readRealtimeConfig({ realtime: {} }), undefined);
  const app = await startApp({});
  try {
    const answer = await fetch(`${app.url}/_events?channel=news`);
    assert.equal(answer.status, 404);
  } finally {
    await app.close();
  }
});

test("wrong config stops the start, naming the key", async () => {
  assert.throws(() => readRealtimeConfig({ realtime: { channels: news, maxConection: 3 } }), {
    code: "E_UNKNOWN_OPTION",
    message: /maxConnections/,
  });
  assert.throws(() => readRealtimeConfig({ realtimeUrl: "amqp://x", realtime: { channels: news } }), {
    code: "E_REALTIME_URL_INVALID",
  });
  assert.throws(() => readRealtimeConfig({ realtime: { channels: { secret: {} } } }), {
    code: "E_REALTIME_OPTION_INVALID",
    message: /realtime\.channels\["secret"\].*public: true or an authorize/,
  });
  assert.throws(
    () => readRealtimeConfig({ realtime: { channels: { both: { public: true, authorize: () => true } } } }),
    { code: "E_REALTIME_OPTION_INVALID" },
  );
  assert.throws(() => readRealtimeConfig({ realtime: { channels: { "a b/:id": { public: true } } } }), {
    code: "E_REALTIME_OPTION_INVALID",
  });
  assert.throws(() => readRealtimeConfig({ realtime: { channels: news, heartbeat: "soon" } }), {
    code: "E_REALTIME_OPTION_INVALID",
    message: /realtime\.heartbeat/,
  });
  assert.throws(() => readRealtimeConfig({ realtime: { channels: news, maxConnections: 0 } }), {
    code: "E_REALTIME_OPTION_INVALID",
    message: /realtime\.maxConnections/,
  });
  assert.throws(
    () => readRealtimeConfig({ realtime: { channels: news, allowedOrigins: ["https://a.example/path"] } }),
    {
      code: "E_REALTIME_OPTION_INVALID",
      message: /realtime\.allowedOrigins/,
    },
  );
  assert.throws(
    () => readRealtimeConfig({ realtime: { channels: { room: { public: true, receive: { say: "hi" } } } } }),
    {
      code: "E_REALTIME_OPTION_INVALID",
      message: /realtime\.channels\["room"\]\.receive/,
    },
  );
  // A presence channel is a private one, and its members' expiry is not shorter than the renewal tick.
  assert.throws(() => readRealtimeConfig({ realtime: { channels: { room: { public: true, presence: true } } } }), {
    code: "E_REALTIME_OPTION_INVALID",
    message: /realtime\.channels\["room"\]\.presence/,
  });
  assert.throws(() => readRealtimeConfig({ realtime: { channels: news, presenceTtl: "1s" } }), {
    code: "E_REALTIME_OPTION_INVALID",
    message: /realtime\.presenceTtl/,
  });
  const settings = readRealtimeConfig({
    realtimeUrl: "redis://127.0.0.1:6379/0",
    realtime: { channels: news, replay: { size: 10, age: "1m" } },
  });
  assert.equal(settings?.kind, "redis");
  assert.equal(settings?.replayAgeMs, 60_000);
});

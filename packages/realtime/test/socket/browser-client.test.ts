// The browser client the app serves at /_events/client.js, in Chromium: it subscribes, gets every
// broadcast once and in order, keeps a presence channel's members, sends a message and gets the
// reply; across a restart (sockets closed with 1012, new ones refused while it lasts) it reconnects
// by itself, trying again after each refusal, and resumes each channel from the last id it saw.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { markDraining, resetDraining } from "@fwkit/koa-host/operations";
import { launchChromium } from "@fwkit/test-servers/browser";
import type { Context, Next } from "koa";
import { realtimeOf } from "../../src/index.js";
import { startApp, type RunningApp } from "../helpers.js";

const page = `<!doctype html><title>client</title><script type="module">
import { connectRealtime } from "/_events/client.js";
window.got = [];
window.closes = [];
window.subscribed = 0;
const realtime = connectRealtime("/_events", { minDelay: 100, maxDelay: 1000 });
realtime.onStatus((state, code) => { if (state === "closed") window.closes.push(code); });
realtime.subscribe("news", { event: (event, data) => window.got.push(data.n), subscribed: () => window.subscribed++ });
realtime.subscribe("rooms/1", { presence: (members) => { window.members = members.map((member) => member.name); } });
realtime.subscribe("echo", { subscribed: () => { window.echo = true; } });
window.realtime = realtime;
</script>`;

type PageState = {
  got: number[];
  closes: number[];
  subscribed: number;
  members?: string[];
  echo?: boolean;
  realtime: { send(channel: string, event: string, data: unknown): Promise<unknown> };
};

let app: RunningApp;
let browser: Awaited<ReturnType<typeof launchChromium>>;
before(async () => {
  const serve = (ctx: Context, next: Next) => {
    if (ctx.path !== "/page") return next();
    ctx.type = "html";
    ctx.body = page;
  };
  app = await startApp(
    {
      channels: {
        news: { public: true },
        "rooms/:room": { presence: true, authorize: () => ({ id: "page", name: "the page" }) },
        echo: { public: true, receive: { ping: (data: unknown) => ({ pong: data }) } },
      },
      replay: { size: 500 },
    },
    {},
    [serve],
  );
  browser = await launchChromium();
});
after(async () => {
  resetDraining();
  await browser?.close();
  await app?.close();
});

test("the served client is an ES module, revalidated by its ETag", async () => {
  const res = await fetch(`${app.url}/_events/client.js`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/javascript/);
  assert.match(await res.text(), /export function connectRealtime/);
  const again = await fetch(`${app.url}/_events/client.js`, { headers: { "If-None-Match": res.headers.get("etag")! } });
  assert.equal(again.status, 304);
});

test("in Chromium: events once and in order across a restart, the members, a reply", async () => {
  const tab = await browser.newPage();
  await tab.goto(`${app.url}/page`);
  await tab.waitForFunction(() => {
    const page = globalThis as unknown as PageState;
    return page.subscribed === 1 && page.echo === true && page.members?.length === 1;
  });
  assert.deepEqual(await tab.evaluate(() => (globalThis as unknown as PageState).members), ["the page"]);
  assert.deepEqual(await tab.evaluate(() => (globalThis as unknown as PageState).realtime.send("echo", "ping", 7)), {
    pong: 7,
  });
  const hub = realtimeOf(app.host)!;
  for (let n = 0; n < 50; n++) await hub.broadcast("news", "posted", { n });
  await tab.waitForFunction(() => (globalThis as unknown as PageState).got.length >= 50);
  // A restart: the node closes its sockets with 1012 and refuses new ones until it is back.
  markDraining();
  await tab.waitForFunction(() => (globalThis as unknown as PageState).closes.includes(1012));
  for (let n = 50; n < 100; n++) await hub.broadcast("news", "posted", { n });
  resetDraining();
  await tab.waitForFunction(() => (globalThis as unknown as PageState).got.length >= 100, undefined, {
    timeout: 60_000,
  });
  const got = await tab.evaluate(() => (globalThis as unknown as PageState).got);
  assert.deepEqual(
    got,
    Array.from({ length: 100 }, (_, n) => n),
  );
  assert.ok((await tab.evaluate(() => (globalThis as unknown as PageState).subscribed)) >= 2);
});

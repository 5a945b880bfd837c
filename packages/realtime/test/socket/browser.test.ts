// The browser's own WebSocket, in Chromium, against a real app: the page subscribes by message and
// gets every broadcast once and in order; a page of another origin is refused at the handshake.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launchChromium } from "@fwkit/test-servers/browser";
import type { Context, Next } from "koa";
import { realtimeOf } from "../../src/index.js";
import { channels, startApp, type RunningApp } from "../helpers.js";

const page = (target: string) => `<!doctype html><title>live</title><script>
window.got = [];
const socket = new WebSocket(${JSON.stringify(target)});
socket.onopen = () => socket.send(JSON.stringify({ type: "subscribe", channel: "news" }));
socket.onmessage = (message) => {
  const frame = JSON.parse(message.data);
  if (frame.type === "subscribed") window.subscribed = true;
  if (frame.type === "event") window.got.push(frame.data.n);
};
socket.onclose = (event) => { window.closeCode = event.code; };
</script>`;

let app: RunningApp;
let other: RunningApp;
let browser: Awaited<ReturnType<typeof launchChromium>>;
before(async () => {
  const serve = (ctx: Context, next: Next) => {
    if (ctx.path !== "/page") return next();
    ctx.type = "html";
    ctx.body = page(`ws://${app.url.slice("http://".length)}/_events`);
  };
  app = await startApp({ channels }, {}, [serve]);
  // Another origin (another port) serving a page that tries the first app's socket.
  other = await startApp({ channels }, {}, [serve]);
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await app?.close();
  await other?.close();
});

test("a WebSocket in Chromium gets every broadcast once and in order", async () => {
  const tab = await browser.newPage();
  await tab.goto(`${app.url}/page`);
  await tab.waitForFunction(() => (globalThis as unknown as { subscribed?: boolean }).subscribed === true);
  // Through this app's hub: broadcast() goes through the app set up last in the process (the other one).
  for (let n = 0; n < 100; n++) await realtimeOf(app.host)!.broadcast("news", "posted", { n });
  await tab.waitForFunction(() => (globalThis as unknown as { got: number[] }).got.length >= 100);
  const got = await tab.evaluate(() => (globalThis as unknown as { got: number[] }).got);
  assert.deepEqual(
    got,
    Array.from({ length: 100 }, (_, n) => n),
  );
});

test("a page of another origin cannot open the app's WebSocket", async () => {
  const tab = await browser.newPage();
  await tab.goto(`${other.url}/page`);
  // The handshake is answered 403: the browser reports an abnormal close (1006), never an open socket.
  await tab.waitForFunction(() => (globalThis as unknown as { closeCode?: number }).closeCode !== undefined);
  assert.equal(await tab.evaluate(() => (globalThis as unknown as { closeCode?: number }).closeCode), 1006);
  assert.equal(await tab.evaluate(() => (globalThis as unknown as { subscribed?: boolean }).subscribed), undefined);
});

// The browser's own EventSource, in Chromium, against a real app: every broadcast once and in
// order; when the connection is cut, EventSource reconnects by itself with Last-Event-ID and gets
// what was broadcast meanwhile, nothing twice.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launchChromium } from "@fwkit/test-servers/browser";
import type { Context, Next } from "koa";

import { broadcast } from "../src/index.js";
import { channels, startApp, type RunningApp } from "./helpers.js";

const PAGE = `<!doctype html><title>orders</title><script>
window.got = [];
const stream = new EventSource("/_events?channel=news");
stream.addEventListener("posted", (event) => window.got.push(JSON.parse(event.data).data.n));
stream.addEventListener("ready", () => { window.ready = (window.ready ?? 0) + 1; });
</script>`;

const page = async (ctx: Context, next: Next) => {
  if (ctx.path !== "/page") return next();
  ctx.type = "html";
  ctx.body = PAGE;
};

let app: RunningApp;
let browser: Awaited<ReturnType<typeof launchChromium>>;
before(async () => {
  app = await startApp({ channels, retry: "200ms" }, {}, [page]);
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await app?.close();
});

test("EventSource in Chromium gets every broadcast once and in order, across a cut connection", async () => {
  const tab = await browser.newPage();
  await tab.goto(`${app.url}/page`);
  await tab.waitForFunction(() => (globalThis as unknown as { ready?: number }).ready === 1);
  for (let n = 0; n < 100; n++) await broadcast("news", "posted", { n });
  await tab.waitForFunction(() => (globalThis as unknown as { got: number[] }).got.length >= 100);
  // The server cuts every connection (a node lost): the browser reconnects by itself.
  app.server.closeAllConnections();
  for (let n = 100; n < 150; n++) await broadcast("news", "posted", { n });
  await tab.waitForFunction(() => (globalThis as unknown as { ready?: number }).ready === 2);
  for (let n = 150; n < 200; n++) await broadcast("news", "posted", { n });
  await tab.waitForFunction(() => (globalThis as unknown as { got: number[] }).got.length >= 200);
  const got = await tab.evaluate(() => (globalThis as unknown as { got: number[] }).got);
  assert.deepEqual(
    got,
    Array.from({ length: 200 }, (_, n) => n),
  );
});

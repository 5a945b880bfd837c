import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import type { Middleware } from "koa";
import { requireServer, serverSkip } from "@fwkit/test-servers";
import { serve, type TestApp } from "../helpers.js";
import { createCache, type Cache } from "../../src/cache/cache.js";
import { responseCache } from "../../src/cache/response.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// The cached pages' TTL: the requests "within the TTL" must all happen inside it, which on a busy
// machine takes longer than the 1 s the option allows at least.
const TTL_SECONDS = 3;

const backends: Array<{ name: string; skip: { skip: string | false }; url: () => Promise<string> }> = [
  { name: "memory", skip: { skip: false }, url: async () => "memory://" },
  {
    name: "Redis",
    skip: serverSkip,
    url: async () =>
      `${await requireServer("redis")}?prefix=${encodeURIComponent(`services-response-test:${randomUUID()}:`)}`,
  },
];

for (const backend of backends) {
  describe(`response caching on ${backend.name}`, backend.skip, () => {
    let cache: Cache;
    let app: TestApp;
    const runs = new Map<string, number>();

    /** A stand-in for the routed views: each path counts its executions. */
    const views: Middleware = async (ctx) => {
      runs.set(ctx.path, (runs.get(ctx.path) ?? 0) + 1);
      const run = runs.get(ctx.path);
      switch (ctx.path) {
        case "/json":
          ctx.body = { run, query: ctx.querystring };
          return;
        case "/cookie":
          ctx.cookies.set("pref", "dark", { signed: false });
          ctx.body = `cookie ${run}`;
          return;
        case "/missing":
          ctx.status = 404;
          ctx.body = `missing ${run}`;
          return;
        case "/private":
          ctx.set("Cache-Control", "private");
          ctx.body = `private ${run}`;
          return;
        default:
          ctx.type = "html";
          ctx.body = `<p>${ctx.path} run ${run} ${ctx.querystring}</p>`;
      }
    };
    /** Stands for a session middleware that commits a cookie after the route has run. */
    const lateCookie: Middleware = async (ctx, next) => {
      await next();
      if (ctx.path === "/late-cookie") ctx.set("Set-Cookie", "koa.sess=new; path=/; httponly");
    };

    before(async () => {
      cache = await createCache(await backend.url());
      app = await serve(lateCookie, responseCache(cache, { seconds: TTL_SECONDS, sessionCookie: "app.sid" }), views);
    });
    after(async () => {
      await app.close();
      await cache.close();
    });

    const get = (path: string, init?: RequestInit) => fetch(app.base + path, init);

    test("a cached GET is not re-executed within its TTL, and is after it", async () => {
      const first = await get("/page?b=2&a=1");
      assert.equal(first.headers.get("x-cache"), "MISS");
      const body = await first.text();
      const second = await get("/page?b=2&a=1");
      assert.equal(second.headers.get("x-cache"), "HIT");
      assert.equal(await second.text(), body);
      assert.equal(second.headers.get("content-type"), "text/html; charset=utf-8");
      assert.equal(runs.get("/page"), 1);

      // The query is part of the key, in any order.
      assert.equal(await (await get("/page?a=1&b=2")).text(), body);
      assert.equal(runs.get("/page"), 1);
      await get("/page?a=2");
      assert.equal(runs.get("/page"), 2);

      await sleep(TTL_SECONDS * 1000 + 200);
      const later = await get("/page?b=2&a=1");
      assert.equal(later.headers.get("x-cache"), "MISS");
      assert.equal(runs.get("/page"), 3);
    });

    test("HEAD is served from a cached GET", async () => {
      const full = await get("/head-check");
      const length = Buffer.byteLength(await full.text());
      const head = await get("/head-check", { method: "HEAD" });
      assert.equal(head.status, 200);
      assert.equal(head.headers.get("x-cache"), "HIT");
      assert.equal(head.headers.get("content-length"), String(length));
      assert.equal(await head.text(), "");
      assert.equal(runs.get("/head-check"), 1);
    });

    test("JSON bodies are cached and replayed as JSON", async () => {
      const first = await (await get("/json?x=1")).json();
      const second = await get("/json?x=1");
      assert.equal(second.headers.get("content-type"), "application/json; charset=utf-8");
      assert.deepEqual(await second.json(), first);
      assert.equal(runs.get("/json"), 1);
    });

    test("responses that set cookies, are not 2xx, or are private are never cached", async () => {
      for (const path of ["/cookie", "/late-cookie", "/missing", "/private"]) {
        await get(path);
        const again = await get(path);
        assert.notEqual(again.headers.get("x-cache"), "HIT", path);
        assert.equal(runs.get(path), 2, path);
      }
    });

    test("requests with the session cookie or credentials bypass the cache", async () => {
      await get("/who");
      assert.equal(runs.get("/who"), 1);
      await get("/who", { headers: { Cookie: "theme=x; app.sid=abc" } });
      await get("/who", { headers: { Authorization: "Bearer t" } });
      assert.equal(runs.get("/who"), 3);
      // A session request did not fill the cache for others either.
      await get("/mine", { headers: { Cookie: "app.sid=abc" } });
      await get("/mine");
      assert.equal(runs.get("/mine"), 2);
      // Only the configured name counts: koa.sess is an ordinary cookie here.
      await get("/who", { headers: { Cookie: "koa.sess=zzz" } });
      assert.equal(runs.get("/who"), 3);
    });

    test("other verbs are never cached", async () => {
      await get("/form", { method: "POST" });
      await get("/form", { method: "POST" });
      assert.equal(runs.get("/form"), 2);
    });
  });
}

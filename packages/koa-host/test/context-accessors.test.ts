import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";
import Koa, { type Context } from "koa";
import { FORWARDED_NAMES, installContextForwarders } from "../src/context-accessors.js";

const require = createRequire(import.meta.url);

/** Koa's own context prototype, where `delegates` put its forwarders. */
const koaContext = require("koa/lib/context.js") as object;

/** What kind of property a descriptor is: a method, or which of a getter and a setter it has. */
function kindOf(descriptor: PropertyDescriptor): string {
  if (typeof descriptor.value === "function") return "method";
  return `${descriptor.get ? "get" : ""}${descriptor.set ? "set" : ""}`;
}

test("the forwarders are Koa's delegated names, each of the same kind (method, getter, getter and setter)", () => {
  const delegated = new Map<string, string>();
  for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(koaContext))) {
    const code = [descriptor.value, descriptor.get, descriptor.set].filter(Boolean).map(String).join();
    if (code.includes("this[target]")) delegated.set(name, kindOf(descriptor));
  }
  assert.ok(delegated.size > 40, `found ${delegated.size} delegated names on Koa's context`);
  assert.deepEqual([...FORWARDED_NAMES].sort(), [...delegated.keys()].sort());
  const app = new Koa();
  installContextForwarders(app.context);
  for (const [name, kind] of delegated) {
    const ours = Object.getOwnPropertyDescriptor(app.context, name);
    assert.ok(ours, name);
    assert.equal(kindOf(ours), kind, name);
    assert.equal(ours.enumerable, true, name);
  }
});

/** Everything a handler saw and the raw answer it gave, for one request. */
async function serve(app: Koa, handler: (ctx: Context) => unknown, path: string): Promise<unknown> {
  let seen: unknown;
  app.proxy = true;
  app.use((ctx) => {
    seen = handler(ctx);
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const { port } = server.address() as { port: number };
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      headers: {
        "X-Forwarded-For": "203.0.113.9, 10.0.0.1",
        "X-Forwarded-Host": "api.shop.example.com",
        Accept: "text/html",
        "X-Extra": "a",
      },
      redirect: "manual",
    });
    const headers = [...response.headers].filter(([name]) => name !== "date");
    return { seen, status: response.status, statusText: response.statusText, headers, body: await response.text() };
  } finally {
    server.close();
  }
}

test("an app with the forwarders answers and reads exactly as with Koa's", async () => {
  const handler = (ctx: Context) => {
    const before = {
      method: ctx.method,
      path: ctx.path,
      url: ctx.url,
      query: { ...ctx.query },
      querystring: ctx.querystring,
      search: ctx.search,
      idempotent: ctx.idempotent,
      ip: ctx.ip,
      ips: ctx.ips,
      host: ctx.host,
      hostname: ctx.hostname,
      protocol: ctx.protocol,
      secure: ctx.secure,
      origin: ctx.origin,
      href: ctx.href,
      subdomains: ctx.subdomains,
      fresh: ctx.fresh,
      stale: ctx.stale,
      header: ctx.header["x-extra"],
      headers: ctx.headers["x-extra"],
      url2: String(ctx.URL),
      accepts: ctx.accepts("json", "html"),
      acceptsEncodings: ctx.acceptsEncodings(),
      acceptsCharsets: ctx.acceptsCharsets(),
      acceptsLanguages: ctx.acceptsLanguages(),
      is: ctx.is("json"),
      get: ctx.get("X-Extra"),
      headerSent: ctx.headerSent,
      writable: ctx.writable,
      socket: typeof ctx.socket,
      initialStatus: ctx.status,
    };
    // Koa's request has no setter for these: assigning them does nothing, with either forwarder.
    (ctx as { idempotent: boolean }).idempotent = false;
    ctx.path = "/other";
    ctx.querystring = "b=2";
    ctx.status = 201;
    ctx.message = "Made";
    ctx.set("X-One", "1");
    ctx.set({ "X-Two": "2", "X-Three": "3" });
    ctx.append("X-One", "again");
    ctx.remove("X-Three");
    ctx.vary("Accept");
    ctx.type = "text/plain";
    ctx.body = "hello";
    ctx.length = 5;
    ctx.lastModified = new Date(0);
    ctx.etag = "abc";
    return {
      ...before,
      after: {
        idempotent: ctx.idempotent,
        path: ctx.path,
        url: ctx.url,
        has: ctx.has("X-Two"),
        status: ctx.status,
        message: ctx.message,
        type: ctx.type,
        body: ctx.body,
        length: ctx.length,
        lastModified: ctx.lastModified?.toISOString(),
        etag: ctx.etag,
      },
    };
  };
  const koa = await serve(new Koa(), handler, "/items/1?a=1");
  const app = new Koa();
  installContextForwarders(app.context);
  const ours = await serve(app, handler, "/items/1?a=1");
  assert.deepEqual(ours, koa);
  assert.equal((ours as { status: number }).status, 201);

  // A redirect and an attachment, through each.
  const redirect = (ctx: Context) => {
    ctx.attachment("report.pdf");
    ctx.redirect("/next");
    return ctx.response.get("Location");
  };
  const app2 = new Koa();
  installContextForwarders(app2.context);
  assert.deepEqual(await serve(app2, redirect, "/"), await serve(new Koa(), redirect, "/"));
});

test("what an app puts on app.context after the forwarders wins over them, as over Koa's", () => {
  const app = new Koa();
  installContextForwarders(app.context);
  Object.defineProperty(app.context, "ip", { get: () => "fixed", configurable: true });
  const ctx = app.createContext({ headers: {}, socket: {} } as never, {} as never);
  assert.equal(ctx.ip, "fixed");
});

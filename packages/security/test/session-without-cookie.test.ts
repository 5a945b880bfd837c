/**
 * A cookie-session request that sends no session cookie skips koa-session in front of the view
 * (the first visit of most visitors pays no session work); when it makes a session after all, the session is saved as koa-session would have,
 * also when the view then fails.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Context, Middleware } from "koa";
import { getSession } from "../src/index.js";
import { startApp, View, type TestApp } from "./helpers/app.js";
import { HttpClient } from "@fwkit/test-servers";

/**
 * True when koa-session has made its per-request object for this request: its middleware does, and
 * so does the first read of `ctx.session`.
 */
function koaSessionRan(ctx: Context): boolean {
  return Object.getOwnPropertySymbols(ctx).some((symbol) => symbol.description === "contextSession instance");
}

class Index extends View {
  plain() {
    return { koaSessionRan: koaSessionRan(this.ctx) };
  }

  remember() {
    getSession(this.ctx)["colour"] = String(this.ctx.query["colour"]);
    return { ok: true };
  }

  fail() {
    getSession(this.ctx)["colour"] = "red";
    this.ctx.throw(409, "taken");
  }

  read() {
    return { colour: getSession(this.ctx)["colour"] ?? null, koaSessionRan: koaSessionRan(this.ctx) };
  }
}

/** Answers an error as koa-host's request front does: its status and message, cookies kept (Koa's own handler drops every header). */
const answerErrors: Middleware = async (ctx, next) => {
  try {
    await next();
  } catch (error) {
    ctx.status = (error as { status?: number }).status ?? 500;
    ctx.body = { error: (error as Error).message };
  }
};

describe("cookie sessions, requests without the session cookie", () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ views: { Index }, outer: [answerErrors] });
  });
  after(() => app.close());

  test("a request that leaves the session alone (other cookies or none) runs no session code and gets no cookie", async () => {
    const client = new HttpClient(app.url);
    const first = await client.get("/plain", { headers: { cookie: "unrelated=1" } });
    assert.deepEqual(first.json(), { koaSessionRan: false });
    assert.equal(first.headers.get("set-cookie"), null);
    assert.deepEqual((await client.get("/plain")).json(), { koaSessionRan: false });
  });

  test("a request that writes the session gets its cookie, and the next request reads it through koa-session", async () => {
    const client = new HttpClient(app.url);
    const written = await client.get("/remember?colour=blue");
    assert.equal(written.status, 200);
    assert.ok(client.cookies.has("session"), "the session cookie was set");
    assert.deepEqual((await client.get("/read")).json(), { colour: "blue", koaSessionRan: true });
  });

  test("a request that writes the session and then fails still saves it, as koa-session's own middleware does", async () => {
    const client = new HttpClient(app.url);
    const failed = await client.get("/fail");
    assert.equal(failed.status, 409);
    assert.ok(client.cookies.has("session"), "the session cookie was set on the error response");
    assert.deepEqual((await client.get("/read")).json(), { colour: "red", koaSessionRan: true });
  });

  test("a request that only reads the empty session gets no cookie", async () => {
    const client = new HttpClient(app.url);
    const read = await client.get("/read");
    assert.equal(read.json<{ colour: unknown }>().colour, null);
    assert.equal(read.headers.get("set-cookie"), null);
  });
});

import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { test } from "node:test";
import Koa from "koa";
import type { Context } from "koa";
import { responseBytes } from "../src/response-bytes.js";

/** Serves one request through `answer` and returns what `responseBytes` and Koa's getter said of it then. */
async function bytesOf(answer: (ctx: Context) => void): Promise<{ ours: number | undefined; koa: number | undefined }> {
  const app = new Koa();
  let seen: { ours: number | undefined; koa: number | undefined } | undefined;
  app.use(async (ctx, next) => {
    await next();
    seen = { ours: responseBytes(ctx), koa: ctx.response.length };
  });
  app.use((ctx) => answer(ctx));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const { port } = server.address() as { port: number };
    const response = await fetch(`http://127.0.0.1:${port}/`);
    await response.arrayBuffer();
  } finally {
    server.close();
  }
  assert.ok(seen, "the request was answered");
  return seen;
}

test("the size is what Koa's ctx.response.length says, for every kind of body", async () => {
  const cases: Array<[string, (ctx: Context) => void, number | undefined]> = [
    ["a string (Content-Length set by Koa)", (ctx) => void (ctx.body = "héllo"), 6],
    ["a buffer", (ctx) => void (ctx.body = Buffer.from("abc")), 3],
    ["an object (JSON)", (ctx) => void (ctx.body = { a: 1 }), 7],
    ["a stream (no length)", (ctx) => void (ctx.body = Readable.from(["x"])), undefined],
    ["no body (204)", (ctx) => void (ctx.status = 204), undefined],
    [
      "a Content-Length set by hand, in another case",
      (ctx) => {
        ctx.body = Readable.from(["12345"]);
        ctx.res.setHeader("CONTENT-LENGTH", "5");
      },
      5,
    ],
    [
      "a Content-Length set as a number",
      (ctx) => {
        ctx.body = Readable.from(["1234"]);
        ctx.res.setHeader("content-length", 4);
      },
      4,
    ],
  ];
  for (const [name, answer, expected] of cases) {
    const { ours, koa } = await bytesOf(answer);
    assert.equal(ours, koa, `${name}: the same as Koa's getter`);
    assert.equal(ours, expected, name);
  }
});

// The result table's rules that need a view's own context (the conformance case `results` checks
// every row over HTTP against fw-a and fw-b): a body the view wrote itself, and a status it set.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import Koa from "koa";
import { inject } from "light-my-request";
import type { ResponseKind } from "routing-kernel";
import { prepareResult } from "../../src/results/table.js";
import { shapeOf } from "../../src/results/shape.js";

async function answer(kind: ResponseKind, view: (ctx: Koa.Context) => unknown) {
  const app = new Koa();
  const respond = prepareResult({
    kind,
    handler: "Test.view()",
    template: (ctx, values) => void (ctx.body = `template:${JSON.stringify(values)}`),
  });
  app.use(async (ctx) => {
    try {
      await respond(ctx, view(ctx));
    } catch (error) {
      ctx.status = 500;
      ctx.body = `${(error as { code?: string }).code}: ${(error as Error).message}`;
    }
  });
  app.silent = true;
  return inject(app.callback(), { method: "GET", url: "/" });
}

describe("result table", () => {
  test("undefined or null after the view wrote its own body keeps that body, in every kind", async () => {
    for (const kind of ["html", "json", "xml"] as const) {
      for (const result of [undefined, null]) {
        const res = await answer(kind, (ctx) => {
          ctx.type = "text/csv";
          ctx.body = "a,b";
          return result;
        });
        assert.equal(res.statusCode, 200, `${kind} ${result}`);
        assert.equal(res.body, "a,b", `${kind} ${result}`);
        assert.match(String(res.headers["content-type"]), /text\/csv/);
      }
    }
  });

  test("undefined in a data route keeps a status the view set, with no body", async () => {
    const res = await answer("json", (ctx) => {
      ctx.status = 202;
      return undefined;
    });
    assert.equal(res.statusCode, 202);
    assert.equal(res.body, "");
  });

  test("a JSON cycle is E_RESULT_NOT_SERIALIZABLE naming the method", async () => {
    const cycle: Record<string, unknown> = {};
    cycle["self"] = cycle;
    const res = await answer("json", () => cycle);
    assert.equal(res.statusCode, 500);
    assert.match(
      res.body,
      /^E_RESULT_NOT_SERIALIZABLE: Test\.view\(\) returned a value that cannot be written as JSON/,
    );
  });

  test("shapeOf puts every value in one row", () => {
    class Model {}
    const rows: Array<[unknown, string]> = [
      [undefined, "undefined"],
      [null, "null"],
      ["s", "string"],
      [1, "scalar"],
      [true, "scalar"],
      [1n, "scalar"],
      [{}, "plain-object"],
      [Object.create(null), "plain-object"],
      [[], "array"],
      [new Model(), "instance"],
      [new Date(0), "instance"],
      [Buffer.from("x"), "bytes"],
      [new Uint8Array(1), "bytes"],
      [new Blob(["x"]), "bytes"],
      [new ReadableStream(), "bytes"],
      [new Response("x"), "bytes"],
      [{ [Symbol.toStringTag]: "Response" }, "plain-object"],
      [new Error("x"), "error"],
      [() => 1, "unsupported"],
      [Symbol("s"), "unsupported"],
    ];
    for (const [value, shape] of rows) assert.equal(shapeOf(value), shape, String(shape));
  });
});

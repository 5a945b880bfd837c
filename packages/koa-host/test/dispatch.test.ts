import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Context, Middleware } from "koa";
import { buildRouteTable, defineConventions, routePath } from "routing-kernel";
import { METADATA } from "routing-kernel/plugin";
import { createDispatcher } from "../src/dispatch.js";

class View {
  constructor(readonly ctx: unknown) {}
}

/** Classes with static routes (plain, non-ASCII, holding `%`), a parameter route and a sibling static one. */
function table() {
  const classes = new Function(
    "View",
    `return [
      class Index extends View { index() {} about() {} ["café"]() {} },
      class Blog extends View { latest() {} show(id) {} },
      class Files extends View { get() {} },
    ];`,
  )(View) as Array<typeof View>;
  const files = classes[2]!;
  const metadata: Record<PropertyKey, unknown> = Object.create(null);
  const context = {
    kind: "method",
    name: "get",
    static: false,
    private: false,
    metadata,
    addInitializer() {},
    access: {},
  };
  (routePath("route", "/dl/%7Efoo/") as (value: unknown, context: unknown) => void)(
    (files.prototype as unknown as Record<string, unknown>)["get"],
    context,
  );
  Object.defineProperty(files, METADATA, { value: metadata });
  const conventions = defineConventions({ baseClass: View, trailingSlash: true });
  return buildRouteTable({
    conventions,
    modules: [{ name: "main", exports: Object.fromEntries(classes.map((c) => [c.name, c])) }],
  });
}

/** Runs the dispatcher on a path: the route answered, the status and headers set, or "next". */
function runner(): (method: string, path: string) => string {
  const dispatch: Middleware = createDispatcher({
    table: table(),
    respond: (route) => (ctx) => {
      ctx.state["answered"] = route.id;
    },
    routeMiddleware: () => [],
  });
  return (method, path) => {
    const headers: Record<string, string> = {};
    const ctx = {
      path,
      method,
      querystring: "",
      state: {},
      request: {},
      get: () => "",
      set: (k: string, v: string) => (headers[k] = v),
    } as unknown as Context;
    const result = dispatch(ctx, async () => "next" as never) as unknown;
    if (result instanceof Promise) return "next";
    const answered = ctx.state["answered"] as string | undefined;
    return answered ?? `${ctx.status} ${JSON.stringify(headers)}`;
  };
}

describe("createDispatcher: static paths from a map, as the router would answer them", () => {
  test("plain and percent-encoded forms of static paths", () => {
    const run = runner();
    const cases: Array<[string, string, string]> = [
      ["GET", "/about/", "Index.about"],
      ["GET", "/%61bout/", "Index.about"],
      ["GET", "/café/", "Index.café"],
      ["GET", "/caf%C3%A9/", "Index.café"],
      ["GET", "/caf%c3%a9/", "Index.café"],
      ["GET", "/blog/latest/", "Blog.latest"],
      ["GET", "/blog/l%61test/", "Blog.latest"],
      ["GET", "/blog/show/42/", "Blog.show"],
      ["GET", "/", "Index.index"],
    ];
    for (const [method, path, expected] of cases) assert.equal(run(method, path), expected, path);
  });

  test("an escaped reserved character never turns into a static path", () => {
    const run = runner();
    assert.equal(run("GET", "/ab%2Fout/"), "next");
    assert.equal(run("GET", "/blog%2Flatest/"), "next");
    assert.equal(run("GET", "/blog/x%2Fy/"), "next");
  });

  test("OPTIONS, 405 and the 308 to the other-slash form work for static paths", () => {
    const run = runner();
    assert.equal(run("OPTIONS", "/about/"), '204 {"Allow":"GET, HEAD, OPTIONS"}');
    assert.equal(run("HEAD", "/about/"), "Index.about");
    assert.throws(
      () => run("POST", "/about/"),
      (error: { status?: number }) => error.status === 405,
    );
    assert.equal(run("GET", "/about"), '308 {"Location":"/about/"}');
    assert.equal(run("GET", "/%61bout"), '308 {"Location":"/%61bout/"}');
  });

  test("a static path holding % stays with the router, which matches it as %25 in the request", () => {
    const run = runner();
    for (const path of ["/files/dl/%7Efoo/", "/files/dl/~foo/", "/files/dl/%7efoo/"])
      assert.equal(run("GET", path), "next", path);
    assert.equal(run("GET", "/files/dl/%257Efoo/"), "Files.get");
  });

  test("a path not starting with / is answered by the router holding every path, as before", () => {
    // find-my-way reads `*` (OPTIONS *) against the root.
    const run = runner();
    assert.equal(run("OPTIONS", "*"), '204 {"Allow":"GET, HEAD, OPTIONS"}');
    assert.equal(run("GET", "*"), "Index.index");
    // Static paths still answer afterwards.
    assert.equal(run("GET", "/about/"), "Index.about");
    assert.equal(run("GET", "/%61bout/"), "Index.about");
  });
});

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { codeOf, json, request, tableOf, View } from "./helpers.js";
import { buildRouteTable } from "../src/build.js";
import { defineConventions } from "../src/conventions.js";
import { RESPONSE_KIND_TAG } from "../src/response-kind.js";

class Index extends View {
  index() {}
}
class Blog extends View {
  index() {}
  @json
  comments(id: string) {
    return id;
  }
  @request.get
  @request.post
  submit() {}
}

describe("RouteTable.find", () => {
  test("by Class.method, by Class alone (index), by class and method", () => {
    const table = tableOf({ Index, Blog });
    assert.equal(table.find("Blog.comments").methodName, "comments");
    assert.equal(table.find("Blog").methodName, "index");
    assert.equal(table.find("Blog", "submit").methodName, "submit");
    assert.equal(table.find(Blog, "comments").id, "Blog.comments");
    assert.equal(table.find(Blog).id, "Blog.index");
  });

  test("an unknown route is E_UNKNOWN_ROUTE naming it", () => {
    const table = tableOf({ Blog });
    const byName = codeOf(() => table.find("Blog.missing"));
    assert.equal(byName.code, "E_UNKNOWN_ROUTE");
    assert.match(byName.message, /"Blog\.missing"/);
    assert.match(codeOf(() => table.find(Index)).message, /Index\.index/);
  });

  test("a class name in two modules is E_AMBIGUOUS_ROUTE; the class itself still works", () => {
    const One = {
      Blog: class Blog extends View {
        list() {}
      },
    }.Blog;
    @request.route("/other")
    class Blog2 extends View {
      list() {}
    }
    Object.defineProperty(Blog2, "name", { value: "Blog" });
    const conventions = defineConventions({ baseClass: View, trailingSlash: false });
    const table = buildRouteTable({
      conventions,
      modules: [
        { name: "a", exports: { One } },
        { name: "b", exports: { Blog2 } },
      ],
    });
    const error = codeOf(() => table.find("Blog.list"));
    assert.equal(error.code, "E_AMBIGUOUS_ROUTE");
    assert.match(error.message, /views\/a, views\/b/);
    assert.equal(table.urlFor(Blog2, "list"), "/other/list");
  });
});

describe("route listing", () => {
  test("toJSON: verbs, path, handler, module, kind (responseKind tag or default)", () => {
    assert.deepEqual(tableOf({ Index, Blog }, true).toJSON(), [
      { verbs: ["GET"], path: "/", handler: "Index.index", module: "main", kind: "default" },
      { verbs: ["GET"], path: "/blog/", handler: "Blog.index", module: "main", kind: "default" },
      { verbs: ["GET"], path: "/blog/comments/:id/", handler: "Blog.comments", module: "main", kind: "json" },
      { verbs: ["GET", "POST"], path: "/blog/submit/", handler: "Blog.submit", module: "main", kind: "default" },
    ]);
  });

  test("format: an aligned table with a header; a framework may describe the kind", () => {
    const text = tableOf({ Index, Blog }).format((route) =>
      route.tags[RESPONSE_KIND_TAG] === "json" ? "json" : "html",
    );
    assert.equal(
      text,
      [
        "VERBS     PATH                HANDLER             KIND",
        "GET       /                   main:Index.index    html",
        "GET       /blog               main:Blog.index     html",
        "GET       /blog/comments/:id  main:Blog.comments  json",
        "GET,POST  /blog/submit        main:Blog.submit    html",
      ].join("\n"),
    );
  });

  test("optional segments are marked with ? and several route paths are joined", () => {
    class Pages extends View {
      list(page = "1") {
        return page;
      }
      @request.route("/a")
      @request.route("/b")
      two() {}
    }
    assert.deepEqual(
      tableOf({ Pages })
        .toJSON()
        .map((r) => r.path),
      ["/pages/list/:page?", "/pages/a | /pages/b"],
    );
  });

  test("an empty table lists only the header", () => {
    assert.equal(tableOf({}).format(), "VERBS  PATH  HANDLER  KIND");
    assert.deepEqual(tableOf({}).toJSON(), []);
  });
});

describe("RouteTable.entries order", () => {
  test("property: a stable sort of every (pattern, route) pair by patternOrderKey, whatever the mix", async () => {
    const fc = (await import("fast-check")).default;
    const { patternOrderKey } = await import("../src/paths.js");
    const { routePath } = await import("../src/decorators.js");
    const segment = fc.constantFrom("a", "b", ":x", ":y", "");
    const pattern = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/${s.join("/")}`);
    fc.assert(
      fc.property(fc.array(fc.array(pattern, { minLength: 1, maxLength: 3 }), { maxLength: 10 }), (routes) => {
        const exports: Record<string, unknown> = {};
        routes.forEach((paths, i) => {
          const decorators = paths.map((p) => routePath("route", p));
          class R extends View {
            m() {}
          }
          const metadata: DecoratorMetadataObject = {};
          const context = {
            kind: "method",
            name: "m",
            static: false,
            private: false,
            metadata,
            addInitializer() {},
            access: {},
          };
          for (const decorator of decorators) (decorator as (v: unknown, c: unknown) => void)(R.prototype.m, context);
          Object.defineProperty(R, Symbol.metadata, { value: metadata });
          Object.defineProperty(R, "name", { value: `R${i}` });
          exports[`R${i}`] = R;
        });
        let table: ReturnType<typeof tableOf>;
        try {
          table = tableOf(exports);
        } catch {
          return true; // a conflict: nothing to order
        }
        const pairs = table.routes.flatMap((route) => route.patterns.map((p) => ({ pattern: p, route })));
        const expected = [...pairs].sort((a, b) =>
          patternOrderKey(a.pattern) < patternOrderKey(b.pattern)
            ? -1
            : patternOrderKey(a.pattern) > patternOrderKey(b.pattern)
              ? 1
              : 0,
        );
        assert.deepEqual(
          table.entries.map((e) => [e.pattern, e.route.id]),
          expected.map((e) => [e.pattern, e.route.id]),
        );
        return true;
      }),
    );
  });
});

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { buildRouteTable, RouteTableBuilder } from "../src/build.js";
import { defineConventions } from "../src/conventions.js";
import { codeOf, entriesOf, tableOf, View } from "./helpers.js";

class Index extends View {
  index() {}
  aboutUs() {}
  hello_world() {}
}
class UserAccount extends View {
  index() {}
}
class HTTPServer extends View {
  status() {}
}
class APIDocs extends View {
  index() {}
}
class Api2Users extends View {
  index() {}
}
class Blog extends View {
  index() {}
  comments(id: string) {
    return id;
  }
}

describe("class prefix and method segment", () => {
  test("fw-b policy: generated paths never end with / except the root", () => {
    const table = tableOf({ Index, UserAccount, HTTPServer, APIDocs, Api2Users, Blog }, false);
    assert.deepEqual(
      table.routes.map((r) => r.path),
      [
        "/",
        "/about-us",
        "/hello-world",
        "/user-account",
        "/http-server/status",
        "/api-docs",
        "/api2-users",
        "/blog",
        "/blog/comments/:id",
      ],
    );
  });

  test("fw-a policy: generated paths end with /, also after parameters", () => {
    const table = tableOf({ Index, UserAccount, HTTPServer, APIDocs, Api2Users, Blog }, true);
    assert.deepEqual(
      table.routes.map((r) => r.path),
      [
        "/",
        "/about-us/",
        "/hello-world/",
        "/user-account/",
        "/http-server/status/",
        "/api-docs/",
        "/api2-users/",
        "/blog/",
        "/blog/comments/:id/",
      ],
    );
    assert.equal(table.urlFor("Blog.comments", { id: 42 }), "/blog/comments/42/");
  });

  test("no suffix is stripped: BlogView -> /blog-view", () => {
    class BlogView extends View {
      index() {}
    }
    assert.deepEqual(
      tableOf({ BlogView }).routes.map((r) => r.path),
      ["/blog-view"],
    );
  });

  test("about_us and aboutUs give the same segment", () => {
    class Pages extends View {
      about_us() {}
    }
    class Other extends View {
      aboutUs() {}
    }
    assert.deepEqual(
      tableOf({ Pages, Other }).routes.map((r) => r.path),
      ["/pages/about-us", "/other/about-us"],
    );
  });

  test("the rootClassName convention decides the root class", () => {
    class Home extends View {
      index() {}
    }
    const conventions = defineConventions({ baseClass: View, trailingSlash: false, rootClassName: "Home" });
    assert.equal(buildRouteTable({ conventions, modules: [{ name: "m", exports: { Home } }] }).routes[0]?.path, "/");
  });
});

describe("special names and verbs by name", () => {
  class Resource extends View {
    index() {}
    get(id: string) {
      return id;
    }
    post() {}
    put(id: string) {
      return id;
    }
    patch(id: string) {
      return id;
    }
    delete(id: string) {
      return id;
    }
    update() {}
    other() {}
  }

  test("index, get, post, put, patch, delete, update add no segment; update answers PATCH", () => {
    assert.deepEqual(
      tableOf({ Resource }).routes.map((r) => [r.methodName, r.verbs.join(","), r.path]),
      [
        ["index", "GET", "/resource"],
        ["get", "GET", "/resource/:id"],
        ["post", "POST", "/resource"],
        ["put", "PUT", "/resource/:id"],
        ["patch", "PATCH", "/resource/:id"],
        ["delete", "DELETE", "/resource/:id"],
        ["update", "PATCH", "/resource"],
        ["other", "GET", "/resource/other"],
      ],
    );
  });

  test("update and patch on the same path are a real conflict (both PATCH)", () => {
    class Both extends View {
      patch() {}
      update() {}
    }
    const error = codeOf(() => tableOf({ Both }));
    assert.equal(error.code, "E_ROUTE_CONFLICT");
    assert.match(error.message, /PATCH \/both/);
  });
});

describe("routable methods", () => {
  test("skips _names, hooks, getters, setters, statics and constructor", () => {
    class Skips extends View {
      index() {}
      _helper() {}
      beforeRequest() {}
      afterRequest() {}
      get value() {
        return 1;
      }
      set value(_v: number) {}
      static build() {}
    }
    assert.deepEqual(
      tableOf({ Skips }).routes.map((r) => r.methodName),
      ["index"],
    );
  });

  test("a method named like a base-class member is E_RESERVED_NAME, not a silent skip", () => {
    class Clash extends View {
      override redirect() {
        return "";
      }
    }
    const error = codeOf(() => tableOf({ Clash }));
    assert.equal(error.code, "E_RESERVED_NAME");
    assert.match(error.message, /Clash\.redirect\(\)/);
  });

  test("reservedNames (instance members such as ctx) and Object members are refused too", () => {
    class UsesCtx extends View {
      ctx2() {}
      override toString() {
        return "";
      }
    }
    assert.equal(codeOf(() => tableOf({ UsesCtx })).code, "E_RESERVED_NAME");
    class Ctx extends View {
      // @ts-expect-error: a method shadowing the ctx field is exactly the mistake refused.
      ctx() {}
    }
    assert.match(codeOf(() => tableOf({ Ctx })).message, /"ctx"/);
  });

  test("a method name that cannot be a path segment is refused", () => {
    class Odd extends View {
      ["a b"]() {}
    }
    const error = codeOf(() => tableOf({ Odd }));
    assert.equal(error.code, "E_INVALID_ROUTE_PATH");
    assert.match(error.message, /Odd\.a b\(\)/);
  });
});

describe("parameters", () => {
  test("each parameter is one segment in order", () => {
    class Blog2 extends View {
      pair(a: string, b: string) {
        return a + b;
      }
    }
    const route = tableOf({ Blog2 }).find("Blog2.pair");
    assert.deepEqual(route.patterns, ["/blog2/pair/:a/:b"]);
    assert.deepEqual(route.parameters, [
      { name: "a", optional: false, source: "path" },
      { name: "b", optional: false, source: "path" },
    ]);
  });

  test("default values make optional trailing segments: one pattern per variant, shortest first", () => {
    class Posts extends View {
      list(year: string, month = "1", day = "1") {
        return year + month + day;
      }
    }
    const fwb = tableOf({ Posts }).find("Posts.list");
    assert.deepEqual(fwb.patterns, ["/posts/list/:year", "/posts/list/:year/:month", "/posts/list/:year/:month/:day"]);
    assert.equal(fwb.path, "/posts/list/:year/:month?/:day?");
    assert.deepEqual(
      fwb.parameters.map((p) => p.optional),
      [false, true, true],
    );
    const fwa = tableOf({ Posts }, true).find("Posts.list");
    assert.deepEqual(fwa.patterns, [
      "/posts/list/:year/",
      "/posts/list/:year/:month/",
      "/posts/list/:year/:month/:day/",
    ]);
  });

  test("a default followed by a required parameter is required (optional segments are trailing)", () => {
    class Odd extends View {
      show(a = "x", b: string) {
        return a + b;
      }
    }
    const route = tableOf({ Odd }).find("Odd.show");
    assert.deepEqual(route.patterns, ["/odd/show/:a/:b"]);
    assert.deepEqual(
      route.parameters.map((p) => p.optional),
      [false, false],
    );
  });

  test("rest and destructured parameters are startup errors naming the method", () => {
    class Rest extends View {
      many(...ids: string[]) {
        return ids;
      }
    }
    class Destructured extends View {
      one({ id }: { id: string }) {
        return id;
      }
    }
    const rest = codeOf(() => tableOf({ Rest }));
    assert.equal(rest.code, "E_UNSUPPORTED_PARAMETER");
    assert.match(rest.message, /Rest\.many\(\)/);
    const destructured = codeOf(() => tableOf({ Destructured }));
    assert.equal(destructured.code, "E_UNSUPPORTED_PARAMETER");
    assert.match(destructured.message, /Destructured\.one\(\)/);
  });
});

describe("RouteTableBuilder", () => {
  test("the table is frozen: adding after commit throws E_TABLE_FROZEN", () => {
    const builder = new RouteTableBuilder(defineConventions({ baseClass: View, trailingSlash: false }));
    builder.addModule({ name: "main", exports: { Blog } });
    const table = builder.commit();
    assert.ok(Object.isFrozen(table));
    assert.ok(Object.isFrozen(table.routes));
    assert.ok(Object.isFrozen(table.routes[0]));
    assert.equal(codeOf(() => builder.addClass(UserAccount, "main")).code, "E_TABLE_FROZEN");
    assert.equal(codeOf(() => builder.commit()).code, "E_TABLE_FROZEN");
  });

  test("the same class exported twice is routed once", () => {
    const table = tableOf({ Blog, Alias: Blog });
    assert.deepEqual(entriesOf(table), [
      ["GET", "/blog"],
      ["GET", "/blog/comments/:id"],
    ]);
  });

  test("routes carry module, class, method and generated flag", () => {
    const route = tableOf({ Blog }).find("Blog.comments");
    assert.equal(route.module, "main");
    assert.equal(route.viewClass, Blog);
    assert.equal(route.className, "Blog");
    assert.equal(route.methodName, "comments");
    assert.equal(route.id, "Blog.comments");
    assert.equal(route.generated, true);
  });
});

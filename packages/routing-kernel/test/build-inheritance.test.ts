import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { codeOf, request, tableOf, View } from "./helpers.js";

class Blog extends View {
  index() {}
  @request.post
  @request.route("/publish/:id")
  publish(id: string) {
    return id;
  }
  @request.put
  edit(id: string) {
    return id;
  }
  _helper() {}
}

describe("discovery through inheritance", () => {
  test("inherited routable methods are routed on the subclass too, under its prefix", () => {
    class TechBlog extends Blog {
      archive() {}
    }
    const table = tableOf({ Blog, TechBlog });
    assert.deepEqual(
      table.routes.filter((r) => r.className === "TechBlog").map((r) => [r.methodName, r.verbs.join(","), r.path]),
      [
        ["index", "GET", "/tech-blog"],
        ["publish", "POST", "/tech-blog/publish/:id"],
        ["edit", "PUT", "/tech-blog/edit/:id"],
        ["archive", "GET", "/tech-blog/archive"],
      ],
    );
  });

  test("a view class need not be exported to pass its methods on (abstract intermediate)", () => {
    class Crud extends View {
      list() {}
      // biome-ignore format: esbuild parses a decorator named `delete` only in parentheses
      @(request.delete)
      remove(id: string) {
        return id;
      }
    }
    class Users extends Crud {}
    assert.deepEqual(
      tableOf({ Users }).routes.map((r) => `${r.verbs} ${r.path}`),
      ["GET /users/list", "DELETE /users/remove/:id"],
    );
  });

  test("an override without decorators does not inherit its parent's decorators", () => {
    class Plain extends Blog {
      override edit(id: string) {
        return id;
      }
      override publish(id: string) {
        return id;
      }
    }
    const table = tableOf({ Plain });
    assert.deepEqual(table.find("Plain.edit").verbs, ["GET"]);
    assert.deepEqual(table.find("Plain.publish").patterns, ["/plain/publish/:id"]);
    assert.equal(table.find("Plain.publish").generated, true);
  });

  test("an override with decorators uses only its own", () => {
    class Redecorated extends Blog {
      // biome-ignore format: esbuild parses a decorator named `delete` only in parentheses
      @(request.delete)
      override edit(id: string) {
        return id;
      }
    }
    const table = tableOf({ Redecorated });
    assert.deepEqual(table.find("Redecorated.edit").verbs, ["DELETE"]);
    // The inherited, non-overridden method keeps its decorators on the decorated subclass.
    assert.deepEqual(table.find("Redecorated.publish").patterns, ["/redecorated/publish/:id"]);
    assert.deepEqual(table.find("Redecorated.publish").verbs, ["POST"]);
  });

  test("three levels: the grandchild sees the grandparent's decorated methods", () => {
    class Middle extends Blog {}
    class Leaf extends Middle {
      @request.post
      extra() {}
    }
    const table = tableOf({ Leaf });
    assert.deepEqual(table.find("Leaf.edit").verbs, ["PUT"]);
    assert.deepEqual(table.find("Leaf.publish").patterns, ["/leaf/publish/:id"]);
  });

  test("the parameters of an inherited method are read from the declaring function", () => {
    class Child extends Blog {}
    assert.deepEqual(tableOf({ Child }).find("Child.edit").patterns, ["/child/edit/:id"]);
  });

  test("a subclass method colliding with a base-class member is E_RESERVED_NAME naming it", () => {
    class Sneaky extends Blog {
      override redirect(to: string) {
        return to;
      }
    }
    const error = codeOf(() => tableOf({ Sneaky }));
    assert.equal(error.code, "E_RESERVED_NAME");
    assert.match(error.message, /Sneaky\.redirect\(\)/);
    assert.match(error.message, /"redirect"/);
  });

  test("parent and child both mounted do not conflict (different prefixes)", () => {
    class Child extends Blog {}
    assert.equal(tableOf({ Blog, Child }).routes.length, 6);
  });
});

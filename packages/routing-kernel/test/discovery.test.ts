import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { baseMemberNames, extendsBase, methodsOf, viewClassesOf } from "../src/discovery.js";
import { View } from "./helpers.js";

class Blog extends View {
  index() {}
  comments(_id: string) {}
  get title() {
    return "";
  }
  static make() {}
}
class TechBlog extends Blog {
  override comments(_id: string) {}
  archive() {}
}
class NotAView {
  index() {}
}

describe("extendsBase / viewClassesOf", () => {
  test("a class extending the base directly or through another view class is a view", () => {
    assert.equal(extendsBase(Blog, View), true);
    assert.equal(extendsBase(TechBlog, View), true);
    assert.equal(extendsBase(View, View), false);
    assert.equal(extendsBase(NotAView, View), false);
    assert.equal(
      extendsBase(() => {}, View),
      false,
    );
    assert.equal(extendsBase("Blog", View), false);
  });

  test("exported view classes in export order, each once, other exports ignored", () => {
    const found = viewClassesOf(
      { name: "main", exports: { TechBlog, Blog, Again: Blog, NotAView, helper: () => 1, n: 3 } },
      View,
    );
    assert.deepEqual(found, [TechBlog, Blog]);
  });
});

describe("methodsOf", () => {
  test("own and inherited methods, never the base class's; no getters or statics", () => {
    assert.deepEqual(
      methodsOf(Blog, View).map((m) => m.name),
      ["index", "comments"],
    );
  });

  test("inherited methods are found on the subclass; an override keeps its position and declarer", () => {
    const methods = methodsOf(TechBlog, View);
    assert.deepEqual(
      methods.map((m) => m.name),
      ["index", "comments", "archive"],
    );
    assert.equal(methods.find((m) => m.name === "index")?.declarer, Blog);
    assert.equal(methods.find((m) => m.name === "comments")?.declarer, TechBlog);
    assert.equal(methods.find((m) => m.name === "comments")?.fn, TechBlog.prototype.comments);
  });

  test("an accessor in a subclass shadows an inherited method of that name", () => {
    class Shadow extends Blog {
      // @ts-expect-error: an accessor shadowing a method is exactly the case under test.
      override get comments() {
        return (_id: string) => {};
      }
    }
    assert.deepEqual(
      methodsOf(Shadow, View).map((m) => m.name),
      ["index"],
    );
  });
});

describe("baseMemberNames", () => {
  test("the base class's members and Object's, not constructor", () => {
    const names = baseMemberNames(View);
    assert.ok(names.has("redirect"));
    assert.ok(names.has("toString"));
    assert.ok(!names.has("constructor"));
  });
});

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { buildRouteTable } from "routing-kernel";
import { conventions, FwB } from "../src/base.js";
import { route } from "../src/decorators/index.js";
import { request } from "../src/request.js";

const table = (exports: Record<string, unknown>) =>
  buildRouteTable({ conventions, modules: [{ name: "main", exports }] });

describe("request verb decorators", () => {
  test("restrict verbs and keep the generated path and parameters; stacking adds verbs", () => {
    class Post extends FwB {
      @request.post create() {}
      @request.put() replace(id: string) {
        return id;
      }
      @request.patch edit(id: string) {
        return id;
      }
      // biome-ignore format: esbuild parses a decorator named `delete` only in parentheses
      @(request.delete) remove(id: string) {
        return id;
      }
      @request.del drop(id: string) {
        return id;
      }
      @request.get @request.post both() {}
      @request.options probe() {}
      @request.all any() {}
    }
    const rows = table({ Post }).routes.map((r) => [r.id, r.verbs.join(","), r.path]);
    assert.deepEqual(rows, [
      ["Post.create", "POST", "/post/create"],
      ["Post.replace", "PUT", "/post/replace/:id"],
      ["Post.edit", "PATCH", "/post/edit/:id"],
      ["Post.remove", "DELETE", "/post/remove/:id"],
      ["Post.drop", "DELETE", "/post/drop/:id"],
      ["Post.both", "GET,POST", "/post/both"],
      ["Post.probe", "OPTIONS", "/post/probe"],
      ["Post.any", "GET,POST,PUT,PATCH,DELETE", "/post/any"],
    ]);
  });

  test("order relative to @route does not matter", () => {
    class A extends FwB {
      @request.post @route("/x") one() {}
      @route("/y") @request.post two() {}
    }
    const rows = table({ A }).routes.map((r) => [r.verbs.join(","), r.path]);
    assert.deepEqual(rows, [
      ["POST", "/a/x"],
      ["POST", "/a/y"],
    ]);
  });

  test("a verb decorator on a class is refused", () => {
    assert.throws(
      () => {
        @(request.post as unknown as (value: unknown, context: ClassDecoratorContext) => void)
        class Bad extends FwB {}
        return Bad;
      },
      { code: "E_INVALID_DECORATOR_TARGET" },
    );
  });
});

import assert from "node:assert/strict";
import { test } from "node:test";
import { buildRouteTable } from "../src/build.js";
import { defineConventions } from "../src/conventions.js";
import { verbDecorators } from "../src/verb-decorators.js";

class Base {}
const request = verbDecorators("request");

test("verb decorators restrict verbs bare or called, stack, and keep the generated path", () => {
  class Items extends Base {
    @request.post create() {}
    @request.get() @request.post() both(id: string) {
      return id;
    }
    @request.del remove(id: string) {
      return id;
    }
    @request.all any() {}
  }
  const table = buildRouteTable({
    conventions: defineConventions({ baseClass: Base, trailingSlash: false }),
    modules: [{ name: "m", exports: { Items } }],
  });
  const verbs = Object.fromEntries(table.routes.map((r) => [r.methodName, [r.verbs.join(","), r.path]]));
  assert.deepEqual(verbs, {
    create: ["POST", "/items/create"],
    both: ["GET,POST", "/items/both/:id"],
    remove: ["DELETE", "/items/remove/:id"],
    any: ["GET,POST,PUT,PATCH,DELETE", "/items/any"],
  });
});

test("a verb decorator on a getter is refused with the decorator's name", () => {
  assert.throws(() => {
    class Bad extends Base {
      // @ts-expect-error a method decorator on a getter
      @request.post get value() {
        return 1;
      }
    }
    return Bad;
  }, /@request\.post cannot decorate a getter/);
});

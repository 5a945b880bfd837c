import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { defineConventions, SPECIAL_VERBS } from "../src/conventions.js";

class Base {}

describe("defineConventions", () => {
  test("the routing defaults both frameworks share", () => {
    const conventions = defineConventions({ baseClass: Base, trailingSlash: true });
    assert.equal(conventions.rootClassName, "Index");
    assert.deepEqual(conventions.defaultVerbs, ["GET"]);
    assert.deepEqual([...conventions.hookNames], ["beforeRequest", "afterRequest"]);
    assert.deepEqual([...conventions.silentNames].sort(), ["delete", "get", "index", "patch", "post", "put", "update"]);
    assert.equal(conventions.trailingSlash, true);
    assert.ok(Object.isFrozen(conventions));
  });

  test("verbs by special name; update answers PATCH", () => {
    assert.deepEqual(SPECIAL_VERBS, {
      index: ["GET"],
      get: ["GET"],
      post: ["POST"],
      put: ["PUT"],
      patch: ["PATCH"],
      delete: ["DELETE"],
      update: ["PATCH"],
    });
    assert.ok(Object.isFrozen(SPECIAL_VERBS));
  });

  test("a framework may override any default", () => {
    const conventions = defineConventions({
      baseClass: Base,
      trailingSlash: false,
      rootClassName: "Home",
      reservedNames: ["ctx"],
    });
    assert.equal(conventions.rootClassName, "Home");
    assert.deepEqual(conventions.reservedNames, ["ctx"]);
  });
});

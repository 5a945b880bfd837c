import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ALL_VERBS, isVerb, sortVerbs, VERBS } from "../src/verbs.js";

describe("verbs", () => {
  test("isVerb knows the standard verbs only (UPDATE is not one: Node refuses it)", () => {
    for (const verb of VERBS) assert.ok(isVerb(verb));
    assert.equal(isVerb("UPDATE"), false);
    assert.equal(isVerb("get"), false);
  });

  test("sortVerbs orders canonically and removes duplicates", () => {
    assert.deepEqual(sortVerbs(["POST", "GET", "POST", "DELETE"]), ["GET", "POST", "DELETE"]);
  });

  test("all stands for GET, POST, PUT, PATCH, DELETE", () => {
    assert.deepEqual([...ALL_VERBS], ["GET", "POST", "PUT", "PATCH", "DELETE"]);
  });
});

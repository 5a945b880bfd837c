import { describe, test } from "node:test";
import assert from "node:assert/strict";
import * as errors from "../src/errors.js";
import { createError, FrameworkError } from "../src/errors.js";

describe("createError", () => {
  test("a class with a fixed code and status that formats its message", () => {
    const E_DEMO = createError("E_DEMO", 409, (what: string) => `${what} already exists`);
    const error = new E_DEMO("the user");
    assert.ok(error instanceof FrameworkError);
    assert.ok(error instanceof E_DEMO);
    assert.ok(error instanceof Error);
    assert.equal(error.code, "E_DEMO");
    assert.equal(error.status, 409);
    assert.equal(error.name, "E_DEMO");
    assert.equal(error.message, "the user already exists");
    assert.equal(E_DEMO.code, "E_DEMO");
    assert.equal(E_DEMO.status, 409);
  });

  test("every kernel error's class name equals its code", () => {
    for (const [name, value] of Object.entries(errors)) {
      if (!name.startsWith("E_")) continue;
      assert.equal((value as { code: string }).code, name);
    }
  });
});

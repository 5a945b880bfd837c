import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { z } from "zod";
import {
  fieldErrors,
  FORM_FIELD,
  isValidationError,
  oldInput,
  validate,
  validateValue,
  type ValidationError,
} from "../src/validate.js";

describe("validate", () => {
  test("returns the typed output of a zod schema", async () => {
    const ctx = { query: {}, request: { body: { age: "42", name: "Ada" } } };
    const value = await validate(ctx, z.object({ age: z.coerce.number(), name: z.string() }));
    const age: number = value.age;
    assert.deepEqual(value, { age: 42, name: "Ada" });
    assert.equal(age, 42);
  });

  test("any Standard Schema v1 works, sync or async", async () => {
    const even: StandardSchemaV1<unknown, number> = {
      "~standard": {
        version: 1,
        vendor: "hand-made",
        validate: async (value) =>
          typeof value === "number" && value % 2 === 0
            ? { value }
            : { issues: [{ message: "must be even", path: [{ key: "n" }] }] },
      },
    };
    assert.equal(await validateValue(even, 4), 4);
    await assert.rejects(validateValue(even, 3), (error: ValidationError) => {
      assert.deepEqual(error.fields, { n: ["must be even"] });
      return true;
    });
  });

  test("failures carry status 422, code E_VALIDATION, per-field messages and the old input without secrets", async () => {
    const ctx = {
      query: { page: "2" },
      request: { body: { email: "x", password: "hunter2", _csrf_token: "t", tags: ["a", 1, { x: 1 }] } },
    };
    const schema = z.object({ email: z.email(), password: z.string().min(10) });
    await assert.rejects(validate(ctx, schema, { from: ["query", "body"] }), (error: unknown) => {
      assert.ok(isValidationError(error));
      assert.equal(error.status, 422);
      assert.equal(error.code, "E_VALIDATION");
      assert.deepEqual(Object.keys(error.fields).sort(), ["email", "password"]);
      // Only the schema's declared fields are kept (page and tags are not declared).
      assert.deepEqual(error.old, { email: "x" });
      assert.equal(error.message, "Validation failed for email, password.");
      return true;
    });
  });

  test("a missing body validates as an empty object, so every field is reported", async () => {
    await assert.rejects(
      validate({ query: {}, request: {} }, z.object({ name: z.string() })),
      (error: ValidationError) => {
        assert.deepEqual(Object.keys(error.fields), ["name"]);
        return true;
      },
    );
  });
});

describe("fieldErrors and oldInput", () => {
  test("paths are dotted, issues without a path go to _form", () => {
    assert.deepEqual(
      fieldErrors([
        { message: "a", path: ["items", 0, "name"] },
        { message: "b", path: [{ key: "items" }, { key: 0 }, { key: "name" }] },
        { message: "c" },
      ]),
      { "items.0.name": ["a", "b"], [FORM_FIELD]: ["c"] },
    );
  });

  test("old input keeps plain values, drops secrets and objects, cuts long text", () => {
    const old = oldInput({
      name: "n",
      new_password: "x",
      apiToken: "t",
      _method: "PUT",
      nested: { a: 1 },
      long: "y".repeat(3000),
      ok: true,
    });
    assert.deepEqual(Object.keys(old), ["name", "long", "ok"]);
    // Cut to what fits in the bytes a refused form may keep.
    assert.ok((old["long"] as string).length > 1000 && (old["long"] as string).length < 1536);
    assert.deepEqual(oldInput(null), {});
    assert.deepEqual(oldInput(["a"]), {});
  });
});

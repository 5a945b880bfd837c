import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { z } from "zod";
import {
  boundFieldErrors,
  boundMessage,
  boundOldInput,
  declaredFields,
  REFUSED_INPUT_LIMITS,
} from "../src/refused-input.js";
import { flash, flashInput } from "../src/flash.js";
import { oldInput, validateValue, type ValidationError } from "../src/validate.js";

const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value), "utf8");

describe("what a refused form may keep", () => {
  test("declaredFields reads a zod object's fields, through pipes, wrappers and unions", () => {
    const form = z.object({ title: z.string(), body: z.string().optional() });
    assert.deepEqual([...declaredFields(form)!], ["title", "body"]);
    assert.deepEqual([...declaredFields(form.refine(() => true))!], ["title", "body"]);
    assert.deepEqual([...declaredFields(z.preprocess((v) => v, form))!], ["title", "body"]);
    assert.deepEqual([...declaredFields(form.optional())!], ["title", "body"]);
    assert.deepEqual([...declaredFields(z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]))!].sort(), [
      "a",
      "b",
    ]);
    assert.equal(declaredFields(z.string()), undefined);
    assert.equal(declaredFields({ "~standard": { validate: () => ({ value: 1 }) } }), undefined);
  });

  test("old input keeps only the declared fields, secrets left out", () => {
    const declared = new Set(["title", "password", "missing"]);
    assert.deepEqual(oldInput({ extra: "x", title: "T", password: "p", other: "y" }, declared), { title: "T" });
  });

  test("a refused value of a schema keeps no undeclared field, however many were sent", async () => {
    const schema = z.object({ title: z.string().min(1), body: z.string() });
    const value: Record<string, string> = { title: "", body: "kept" };
    for (let i = 0; i < 480; i++) value[`junk${i}`] = "x".repeat(2000);
    const error = await validateValue(schema, value).then(
      () => assert.fail("refused"),
      (e: ValidationError) => e,
    );
    assert.deepEqual(error.old, { title: "", body: "kept" });
  });

  test("old input and messages stay within the documented fields and bytes", () => {
    const old: Record<string, string> = {};
    for (let i = 0; i < 500; i++) old[`field${i}`] = "é".repeat(500);
    const kept = boundOldInput(old);
    assert.ok(size(kept) <= REFUSED_INPUT_LIMITS.oldBytes + 2, `${size(kept)} bytes`);
    assert.ok(Object.keys(kept).length <= REFUSED_INPUT_LIMITS.oldFields);
    assert.ok(Object.keys(kept).length > 0, "what fits is kept");
    const small: Record<string, number> = {};
    for (let i = 0; i < 100; i++) small[`f${i}`] = i;
    assert.equal(Object.keys(boundOldInput(small)).length, REFUSED_INPUT_LIMITS.oldFields);

    const errors: Record<string, string[]> = {};
    for (let i = 0; i < 500; i++) errors[`field${i}`] = ["m".repeat(5000), "second", "third", "fourth"];
    const messages = boundFieldErrors(errors);
    assert.ok(size(messages) <= REFUSED_INPUT_LIMITS.errorBytes + 2, `${size(messages)} bytes`);
    assert.ok(Object.keys(messages).length <= REFUSED_INPUT_LIMITS.errorFields);
    assert.ok(Object.keys(messages).length > 0);
    for (const list of Object.values(messages)) {
      assert.ok(list.length <= REFUSED_INPUT_LIMITS.messagesPerField);
      for (const message of list) assert.ok(message.length <= REFUSED_INPUT_LIMITS.messageLength);
    }
    assert.equal(boundMessage("short"), "short");
    assert.equal(boundMessage("x".repeat(1000)).length, REFUSED_INPUT_LIMITS.messageLength);
  });

  test("the flash data of one refused post, at its largest, stays under 3 KB of JSON", () => {
    const ctx = { session: {} as Record<string, unknown> };
    const errors: Record<string, string[]> = {};
    const old: Record<string, string> = {};
    for (let i = 0; i < 200; i++) {
      errors[`field${i}`] = ["é".repeat(1000), "ü".repeat(1000)];
      old[`field${i}`] = "€".repeat(1000);
    }
    flash(ctx, "error", boundMessage("€".repeat(1000)));
    flashInput(ctx, errors, old);
    const size = Buffer.byteLength(JSON.stringify(ctx.session), "utf8");
    assert.ok(size < 3072, `${size} bytes`);
  });
});

import assert from "node:assert/strict";
import { test } from "node:test";
import { createError } from "../src/errors.js";

const E_PART = createError("E_PART", 500, (reason: string) => `The thing failed: ${reason}. Check the other thing.`);

test("a message built from a part that ends its sentence says the period once", () => {
  assert.equal(
    new E_PART("the bucket has no records.").message,
    "The thing failed: the bucket has no records. Check the other thing.",
  );
  assert.equal(
    new E_PART("Use at least 8 characters.").message,
    "The thing failed: Use at least 8 characters. Check the other thing.",
  );
  const E_END = createError("E_END", 500, (reason: string) => `Refused: ${reason}.`);
  assert.equal(new E_END("Use at least 8 characters.").message, "Refused: Use at least 8 characters.");
});

test("an ellipsis and a relative path stay as written", () => {
  assert.equal(new E_PART("wait...").message, "The thing failed: wait.... Check the other thing.");
  const E_PATH = createError("E_PATH", 500, (path: string) => `"${path}" is not allowed. Use a name.`);
  assert.equal(new E_PATH("../up").message, '"../up" is not allowed. Use a name.');
  const E_DOTS = createError("E_DOTS", 500, () => "declare it: { ... }.");
  assert.equal(new E_DOTS().message, "declare it: { ... }.");
});

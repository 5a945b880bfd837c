import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkKey, uploadKey } from "../../src/storage/keys.js";
import { checkType, DEFAULT_LIMITS } from "../../src/storage/limits.js";

describe("storage keys and limits", () => {
  test("ordinary keys pass unchanged", () => {
    for (const key of ["a.txt", "avatars/2024/u-1_x!.png", "A/B/c.tar.gz"]) assert.equal(checkKey(key), key);
  });

  test("each unsafe form is refused with a reason", () => {
    const reasons: Record<string, RegExp> = {
      "": /empty/,
      "../x": /leaves its folder/,
      "/abs": /absolute/,
      "D:/x": /absolute/,
      "a\\b": /backslash/,
      "a\u0000b": /control/,
      "a\u007fb": /control/,
      "a//b": /empty name/,
      ".git/config": /dot/,
      "name.": /dot/,
      "%2e%2e/x": /characters/,
      "über.txt": /characters/,
      "a b.txt": /characters/,
    };
    for (const [key, reason] of Object.entries(reasons)) {
      assert.throws(
        () => checkKey(key),
        { code: "E_STORAGE_KEY_INVALID", status: 400, message: reason },
        JSON.stringify(key),
      );
    }
    assert.throws(() => checkKey("a".repeat(513)), { message: /512/ });
    assert.throws(() => checkKey(`x/${"a".repeat(256)}`), { message: /255/ });
  });

  test("upload keys are unique and take the extension of the accepted type", () => {
    const first = uploadKey("image/jpeg", "photos/");
    assert.match(first, /^photos\/[0-9a-f-]{36}\.jpg$/);
    assert.notEqual(uploadKey("image/jpeg"), uploadKey("image/jpeg"));
    assert.match(uploadKey("application/x-unknown-thing"), /^[0-9a-f-]{36}$/);
  });

  test("types match exactly or by family, parameters and case ignored", () => {
    const limits = { ...DEFAULT_LIMITS, allowedTypes: ["image/*", "application/pdf"] };
    assert.equal(checkType("IMAGE/PNG", limits), "image/png");
    assert.equal(checkType("application/pdf; name=x", limits), "application/pdf");
    assert.throws(() => checkType("imagex/png", limits), { code: "E_STORAGE_TYPE_NOT_ALLOWED", status: 415 });
    assert.throws(() => checkType("", limits), { code: "E_STORAGE_TYPE_NOT_ALLOWED" });
    assert.equal(checkType("", DEFAULT_LIMITS), "application/octet-stream");
  });
});

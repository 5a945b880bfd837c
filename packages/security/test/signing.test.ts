import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { constantTimeEqual, createSigner } from "../src/signing.js";

describe("signing", () => {
  test("a signed value verifies; any change to value or signature does not", () => {
    const signer = createSigner(["secret"], "purpose");
    const signed = signer.sign("hello.world");
    assert.equal(signer.unsign(signed), "hello.world");
    assert.equal(signer.unsign(`x${signed}`), undefined);
    assert.equal(signer.unsign(signed.slice(0, -1)), undefined);
    for (const bad of ["", ".", "nodot", ".sig", "value."])
      assert.equal(signer.unsign(bad), undefined, JSON.stringify(bad));
  });

  test("keys are separated by purpose and rotate through fallbacks", () => {
    const signed = createSigner(["secret"], "session").sign("v");
    assert.equal(createSigner(["secret"], "remember").unsign(signed), undefined, "another purpose does not verify");
    assert.equal(createSigner(["new-secret", "secret"], "session").unsign(signed), "v", "an old key still verifies");
    assert.equal(createSigner(["new-secret"], "session").unsign(signed), undefined);
    assert.notEqual(createSigner(["new-secret", "secret"], "session").sign("v"), signed, "the first key signs");
  });

  test("constantTimeEqual", () => {
    assert.equal(constantTimeEqual("abc", "abc"), true);
    assert.equal(constantTimeEqual("abc", "abd"), false);
    assert.equal(constantTimeEqual("abc", "abcd"), false);
  });
});

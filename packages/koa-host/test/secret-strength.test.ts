import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { loadConfig } from "../src/config.js";
import { secretWeakness, SECRET_PLACEHOLDERS } from "../src/secret-strength.js";

const STRONG = "n3Xv0yq-8cT1kW2pZbLr4sQe7uHj5fGa9dMo6iYx0E"; // 32 random bytes, base64url

describe("production secrets", () => {
  test("a random key of 32 bytes passes; short, repeated and placeholder keys do not", () => {
    assert.equal(secretWeakness(STRONG), undefined);
    assert.equal(secretWeakness("0123456789abcdef0123456789abcdef"), undefined, "32 hex digits pass");
    assert.match(secretWeakness("x")!, /1 character, fewer than 32/);
    assert.match(secretWeakness("s".repeat(64))!, /only 1 different characters/);
    assert.match(secretWeakness("abab".repeat(16))!, /only 2 different/);
    for (const placeholder of SECRET_PLACEHOLDERS)
      assert.match(secretWeakness(placeholder)!, /placeholder/, placeholder);
    assert.match(secretWeakness("please-change-me-to-something-long-and-random")!, /placeholder/);
    assert.match(secretWeakness("replace-with-your-own-secret-of-64-characters")!, /placeholder/);
  });

  test("APP_ENV=production refuses SECRET_KEY=x and the generated Kubernetes placeholder, naming SECRET_KEY and how to make one", async () => {
    const root = mkdtempSync(join(tmpdir(), "secret-strength-"));
    for (const secret of ["x", "replace-with-a-long-random-string", "k".repeat(40)]) {
      await assert.rejects(
        loadConfig(root, {}, { APP_ENV: "production", SECRET_KEY: secret }),
        (error: Error & { code?: string }) => {
          assert.equal(error.code, "E_WEAK_SECRET_KEY", secret);
          assert.match(error.message, /SECRET_KEY/);
          assert.match(error.message, /openssl rand -base64 32/);
          assert.match(error.message, /randomBytes\(32\)/);
          return true;
        },
      );
    }
    assert.equal((await loadConfig(root, {}, { APP_ENV: "production", SECRET_KEY: STRONG })).secretKey, STRONG);
    // Development and tests keep their short keys.
    assert.equal((await loadConfig(root, {}, { APP_ENV: "test", SECRET_KEY: "x" })).secretKey, "x");
  });
});

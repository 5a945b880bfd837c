import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { loadConfig } from "../src/config.js";
import { secretWeakness, SECRET_PLACEHOLDERS } from "../src/secret-strength.js";

// Made here, never written down: a key spelled out in this repository is refused (published-secret-keys.test.ts).
const STRONG = randomBytes(32).toString("base64url");

describe("production secrets", () => {
  test("a random key of 32 bytes passes; short, repeated and placeholder keys do not", () => {
    assert.equal(secretWeakness(STRONG), undefined);
    assert.equal(secretWeakness(randomBytes(16).toString("hex")), undefined, "32 random hex digits pass");
    assert.equal(secretWeakness(crypto.randomUUID()), undefined, "a random UUID passes");
    assert.match(secretWeakness("x")!, /1 character, fewer than 32/);
    assert.match(secretWeakness("s".repeat(64))!, /only 1 different characters/);
    assert.match(secretWeakness("abab".repeat(16))!, /only 2 different/);
    for (const placeholder of SECRET_PLACEHOLDERS)
      assert.match(secretWeakness(placeholder)!, /placeholder/, placeholder);
    assert.match(secretWeakness("please-change-me-to-something-long-and-random")!, /placeholder/);
    assert.match(secretWeakness("replace-with-your-own-secret-of-64-characters")!, /placeholder/);
  });

  test("long keys made of repeated phrases, counting runs and common words are refused, naming their strength", () => {
    for (const key of [
      "keyboard cat keyboard cat keyboard cat",
      "your-256-bit-secret-your-256-bit-secret",
      "0123456789abcdef0123456789abcdef",
      "change.me.change.me.change.me.change.me",
      "a-production-secret-0123456789abcdef0123456789",
      "test-secret-key-0123456789abcdef",
      "fedcba9876543210fedcba9876543210",
      "a-test-secret-key-for-sealed-payloads-0123456789",
      "correct horse battery staple correct horse",
    ])
      assert.ok(secretWeakness(key), `${key} is refused`);
    assert.match(
      secretWeakness("keyboard cat keyboard cat keyboard cat")!,
      /worth about \d+ bits of guessing, fewer than 100/,
    );
    // Random keys of every usual shape pass, every time.
    for (let i = 0; i < 2000; i++) {
      for (const key of [
        randomBytes(16).toString("hex"),
        randomBytes(32).toString("base64url"),
        randomBytes(32).toString("base64"),
      ])
        assert.equal(secretWeakness(key), undefined, key);
    }
  });

  test("APP_ENV=production refuses SECRET_KEY=x and the generated Kubernetes placeholder, naming SECRET_KEY and how to make one", async () => {
    const root = mkdtempSync(join(tmpdir(), "secret-strength-"));
    for (const secret of [
      "x",
      "replace-with-a-long-random-string",
      "k".repeat(40),
      "keyboard cat keyboard cat keyboard cat",
    ]) {
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

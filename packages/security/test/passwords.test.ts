import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { dummyHash, hashAlgorithm, hashPassword, needsRehash, verifyPassword } from "../src/passwords.js";

const fastBcrypt = { bcryptCost: 4 } as const;
const fastArgon = { algorithm: "argon2id", argon2MemoryCost: 1024, argon2TimeCost: 1 } as const;

describe("passwords", () => {
  test("bcrypt is the default, at cost 12", async () => {
    const hash = await hashPassword("correct horse");
    assert.match(hash, /^\$2b\$12\$[./A-Za-z0-9]{53}$/);
    assert.equal(await verifyPassword("correct horse", hash), true);
    assert.equal(await verifyPassword("correct horsE", hash), false);
    assert.equal(needsRehash(hash), false);
  });

  test("argon2id is selectable and produces a PHC string with the configured parameters", async () => {
    const hash = await hashPassword("correct horse", fastArgon);
    assert.match(hash, /^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    assert.equal(await verifyPassword("correct horse", hash), true);
    assert.equal(await verifyPassword("wrong", hash), false);
    assert.equal(hashAlgorithm(hash), "argon2id");
  });

  test("verification recognises either format whatever the current policy", async () => {
    const bcrypt = await hashPassword("pw-1", fastBcrypt);
    const argon = await hashPassword("pw-1", fastArgon);
    assert.equal(await verifyPassword("pw-1", bcrypt), true);
    assert.equal(await verifyPassword("pw-1", argon), true);
  });

  test("$2a$ and $2y$ bcrypt hashes (other libraries, PHP) verify too", async () => {
    const hash = await hashPassword("légère", fastBcrypt);
    for (const prefix of ["$2a$", "$2y$"]) {
      const variant = prefix + hash.slice(4);
      assert.equal(await verifyPassword("légère", variant), true, prefix);
      assert.equal(await verifyPassword("legere", variant), false, prefix);
      assert.equal(needsRehash(variant, fastBcrypt), false, `${prefix} at the same cost needs no rehash`);
    }
  });

  test("needsRehash reports an algorithm change and a cost change", async () => {
    const bcrypt4 = await hashPassword("pw", fastBcrypt);
    assert.equal(needsRehash(bcrypt4, fastBcrypt), false);
    assert.equal(needsRehash(bcrypt4, { bcryptCost: 5 }), true, "bcrypt cost raised");
    assert.equal(needsRehash(bcrypt4, fastArgon), true, "moved to argon2id");
    const argon = await hashPassword("pw", fastArgon);
    assert.equal(needsRehash(argon, fastArgon), false);
    assert.equal(needsRehash(argon, { ...fastArgon, argon2MemoryCost: 2048 }), true, "argon2 memory raised");
    assert.equal(needsRehash(argon, { ...fastArgon, argon2TimeCost: 2 }), true, "argon2 passes raised");
    assert.equal(needsRehash(argon, fastBcrypt), true, "moved back to bcrypt");
  });

  test("an app moves a user from bcrypt to argon2id at login", async () => {
    let stored = await hashPassword("s3cret", fastBcrypt);
    const policy = fastArgon;
    assert.equal(await verifyPassword("s3cret", stored), true);
    if (needsRehash(stored, policy)) stored = await hashPassword("s3cret", policy);
    assert.equal(hashAlgorithm(stored), "argon2id");
    assert.equal(await verifyPassword("s3cret", stored), true);
    assert.equal(needsRehash(stored, policy), false);
  });

  test("passwords bcrypt would truncate (over 72 bytes) are refused with 400, and never match a bcrypt hash", async () => {
    const long = "é".repeat(37); // 74 bytes in UTF-8
    await assert.rejects(hashPassword(long, fastBcrypt), (error: Error & { code?: string; status?: number }) => {
      assert.equal(error.code, "E_PASSWORD_INVALID");
      assert.equal(error.status, 400);
      assert.match(error.message, /74 bytes long and bcrypt accepts at most 72/);
      return true;
    });
    const hash = await hashPassword(long.slice(0, 36), fastBcrypt);
    assert.equal(await verifyPassword(long, hash), false);
    assert.equal(
      await verifyPassword("x".repeat(100), await hashPassword("x".repeat(100), fastArgon)),
      true,
      "argon2id takes longer passwords",
    );
    await assert.rejects(hashPassword("x".repeat(2000), fastArgon), { code: "E_PASSWORD_INVALID" });
  });

  test("an empty password is refused; a NUL byte does not cut a password short", async () => {
    await assert.rejects(hashPassword("", fastBcrypt), { code: "E_PASSWORD_INVALID" });
    const hash = await hashPassword("pass\u0000word", fastBcrypt);
    assert.equal(await verifyPassword("pass", hash), false);
    assert.equal(await verifyPassword("", hash), false);
  });

  test("a stored hash in no known format is a coded error, not a silent false", async () => {
    for (const stored of ["", "plaintext", "$1$abc$def", "$2b$04$short", "$argon2id$v=19$garbage"]) {
      await assert.rejects(verifyPassword("pw", stored), { code: "E_PASSWORD_HASH_UNKNOWN" }, JSON.stringify(stored));
    }
    assert.throws(() => needsRehash("md5:abc"), { code: "E_PASSWORD_HASH_UNKNOWN" });
  });
});

describe("dummyHash (unknown accounts cost the same verification as real ones)", () => {
  test("a bcrypt dummy has the policy's cost, is a well-formed hash, and matches nothing", async () => {
    const dummy = dummyHash(fastBcrypt);
    assert.match(dummy, /^\$2b\$04\$[./A-Za-z0-9]{53}$/);
    assert.equal(needsRehash(dummy, fastBcrypt), false, "same algorithm and cost as the policy's real hashes");
    assert.equal(await verifyPassword("", dummy), false);
    assert.equal(await verifyPassword("anything", dummy), false);
    assert.notEqual(dummyHash(fastBcrypt), dummy, "random each time");
    assert.match(dummyHash(), /^\$2b\$12\$/, "the default cost");
  });

  test("an argon2id dummy has the policy's parameters and matches nothing", async () => {
    const dummy = dummyHash(fastArgon);
    assert.match(dummy, /^\$argon2id\$v=19\$m=1024,t=1,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    assert.equal(needsRehash(dummy, fastArgon), false);
    assert.equal(await verifyPassword("anything", dummy), false);
  });
});

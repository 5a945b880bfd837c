// fw-b exposes the login manager and password functions of the security battery by name.
import assert from "node:assert/strict";
import { test } from "node:test";
import { hashPassword, issueToken, login, logout, needsRehash, verifyPassword } from "../src/index.js";

test("password functions work through fw-b, and both hash formats verify", async () => {
  const argon = await hashPassword("s3cret pass", { algorithm: "argon2id" });
  assert.equal(await verifyPassword("s3cret pass", argon), true);
  assert.equal(await verifyPassword("wrong", argon), false);
  assert.equal(needsRehash(argon), true, "the default algorithm is bcrypt, so an argon2 hash asks for a rehash");
  for (const fn of [login, logout, issueToken]) assert.equal(typeof fn, "function");
});

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { importDriver, requireDriver } from "../src/drivers.js";

describe("loading optional packages on first use", () => {
  test("a CommonJS package is required once and shared", () => {
    const first = requireDriver<object>("bcrypt", "bcrypt password hashing");
    assert.equal(typeof (first as { hash?: unknown }).hash, "function");
    assert.equal(requireDriver<object>("bcrypt", "bcrypt password hashing"), first);
  });

  test("a missing package is E_SECURITY_DRIVER_MISSING naming it and what needed it", async () => {
    const named = (error: Error & { code?: string }) => {
      assert.equal(error.code, "E_SECURITY_DRIVER_MISSING");
      assert.match(
        error.message,
        /The JWT support needs the package "no-such-package", which could not be loaded \(Cannot find (module|package) 'no-such-package'/,
      );
      assert.match(error.message, /npm install no-such-package/);
      assert.ok(error.cause, "the loader's error is kept as the cause");
      return true;
    };
    assert.throws(() => requireDriver("no-such-package", "JWT support"), named);
    await assert.rejects(
      // @ts-expect-error: the package does not exist, which is the point.
      importDriver("no-such-package", "JWT support", () => import("no-such-package")),
      named,
    );
  });
});

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { importDriver, requireDriver } from "../src/drivers.js";

describe("loading drivers on first use", () => {
  test("a CommonJS driver is required once and shared", () => {
    const first = requireDriver<object>("nodemailer", "SMTP mail transport");
    assert.equal(typeof (first as { createTransport?: unknown }).createTransport, "function");
    assert.equal(requireDriver<object>("nodemailer", "SMTP mail transport"), first);
  });

  test("a missing package is E_SERVICE_DRIVER_MISSING naming it and what needed it", async () => {
    const named = (error: Error & { code?: string }) => {
      assert.equal(error.code, "E_SERVICE_DRIVER_MISSING");
      assert.match(
        error.message,
        /The cache needs the package "no-such-driver", which could not be loaded \(Cannot find (module|package) 'no-such-driver'/,
      );
      assert.match(error.message, /npm install no-such-driver/);
      assert.ok(error.cause, "the loader's error is kept as the cause");
      return true;
    };
    assert.throws(() => requireDriver("no-such-driver", "cache"), named);
    await assert.rejects(
      // @ts-expect-error: the package does not exist, which is the point.
      importDriver("no-such-driver", "cache", () => import("no-such-driver")),
      named,
    );
  });
});

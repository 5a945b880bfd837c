/**
 * fw-b's own decorators check their options where they are written (an unknown option is an error
 * with a suggestion). The shared rules are tested once: decorators both frameworks have are
 * conformance cases (packages/conformance/src/cases/options.ts, csrf-routes.ts), app options a kit
 * test (packages/app-kit/test/app-options.test.ts).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { cache, navTitle, route } from "../src/decorators/index.js";
import { admin } from "../src/contrib/index.js";

describe("fw-b: decorator options checked at start-up", () => {
  const refused = (make: () => unknown, pattern: RegExp) =>
    assert.throws(make, (error: Error & { code?: string }) => {
      assert.equal(error.code, "E_UNKNOWN_OPTION");
      assert.match(error.message, pattern);
      return true;
    });

  test("@navTitle and @admin refuse unknown options", () => {
    refused(() => navTitle("Home", { ordr: 1 } as never), /Did you mean "order"\?/);
    refused(() => admin({ titel: "Tea" } as never), /Did you mean "title"\?/);
  });

  test("@cache refuses what it does not take", () => {
    assert.throws(() => cache({ seconds: 5 } as never));
    assert.equal(typeof route("/x"), "function");
  });
});

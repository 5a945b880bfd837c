/**
 * fw-b's decorators and `defineApp` options are checked at start-up (an
 * unknown option is an error with a suggestion). The shared rules of start-up checks (CSRF fails closed
 * whatever registered the route, per-view CORS) are conformance cases
 * (packages/conformance/src/cases/csrf-routes.ts).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { defineApp } from "../src/index.js";
import { cache, cors, csrfExempt, navTitle, renderJson, route } from "../src/decorators/index.js";
import { admin } from "../src/contrib/index.js";

describe("fw-b: decorator options checked at start-up", () => {
  const refused = (make: () => unknown, pattern: RegExp) =>
    assert.throws(make, (error: Error & { code?: string }) => {
      assert.equal(error.code, "E_UNKNOWN_OPTION");
      assert.match(error.message, pattern);
      return true;
    });

  test("defineApp refuses an unknown option with a suggestion", () => {
    refused(() => defineApp({ root: "/tmp", viewModule: ["main"] } as never), /Did you mean "viewModules"\?/);
  });

  test("@cors with a misspelt key suggests the known one", () => {
    refused(() => cors({ origns: ["https://x.example"] } as never), /Did you mean "origins"\?/);
  });

  test("@navTitle and @admin refuse unknown options", () => {
    refused(() => navTitle("Home", { ordr: 1 } as never), /Did you mean "order"\?/);
    refused(() => admin({ titel: "Tea" } as never), /Did you mean "title"\?/);
  });

  test("@csrfExempt, @renderJson and @cache refuse what they do not take", () => {
    refused(() => (csrfExempt as unknown as (o: unknown) => unknown)({ paths: [] }), /@csrfExempt\(\) takes no options/);
    refused(() => (renderJson as unknown as (o: unknown) => unknown)({ pretty: true }), /@renderJson\(\) takes no options/);
    assert.throws(() => cache({ seconds: 5 } as never));
    assert.equal(typeof route("/x"), "function");
  });
});

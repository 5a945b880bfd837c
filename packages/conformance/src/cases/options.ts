import assert from "node:assert/strict";
import type { SuiteContext } from "../suite.js";

const TITLE = "decorator options checked where they are written (docs/configuration.md)";

/** Calls a bare decorator with options, as a user who thinks it takes some would. */
const called = (decorator: unknown, options: object) => (decorator as (options: object) => unknown)(options);

/** Asserts `make` throws E_UNKNOWN_OPTION with a message matching `pattern`. */
function refused(make: () => unknown, pattern: RegExp): void {
  assert.throws(make, (error: Error & { code?: string }) => {
    assert.equal(error.code, "E_UNKNOWN_OPTION");
    assert.match(error.message, pattern);
    return true;
  });
}

/**
 * A decorator that takes no options refuses any, and a decorator's misspelt option is refused
 * with the known name suggested, whichever framework's name the decorator has.
 */
export function optionCases(s: SuiteContext): void {
  const security = s.adapter.security;
  s.checks(TITLE, (t) => {
    t("the JSON decorator takes no options", async () => {
      refused(() => called(s.adapter.decorators.json, { pretty: true }), /takes no options/);
    });
    if (security) {
      t("the CSRF exemption takes no options", async () => {
        refused(() => called(security.csrfExempt, { paths: [] }), /takes no options/);
      });
    }
    const cors = security?.cors;
    if (cors) {
      t("a CORS policy with a misspelt key is refused, naming the known one", async () => {
        refused(() => cors({ orign: "https://x.example" } as never), /Did you mean "origins?"\?/);
      });
    }
  });
}

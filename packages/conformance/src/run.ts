import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ConformanceAdapter } from "./adapter.js";
import { commandCases } from "./cases/commands.js";
import { conflictCases } from "./cases/conflicts.js";
import { csrfRouteCases } from "./cases/csrf-routes.js";
import { declaredSchemaCases } from "./cases/declared-schemas.js";
import { decoratorCases } from "./cases/decorators.js";
import { errorPageCases } from "./cases/error-pages.js";
import { errorsBeforeViewCases } from "./cases/errors-before-view.js";
import { idempotencyCases } from "./cases/idempotency.js";
import { inheritanceCases } from "./cases/inheritance.js";
import { lifecycleCases } from "./cases/lifecycle.js";
import { optionCases } from "./cases/options.js";
import { orderCases } from "./cases/order.js";
import { overrideCases } from "./cases/override.js";
import { parameterCases } from "./cases/parameters.js";
import { pathCases } from "./cases/paths.js";
import { rateLimitCases } from "./cases/rate-limit.js";
import { resultCases } from "./cases/results.js";
import { securityCases } from "./cases/security.js";
import { slashCases } from "./cases/slashes.js";
import { verbCases } from "./cases/verbs.js";
import { createRegistry, createSuiteContext } from "./suite.js";

/**
 * Runs the shared suite against a framework through its adapter: every rule of docs/routing.md
 * checked over real HTTP on 127.0.0.1 (and, with the adapter's optional parts, sessions and CSRF,
 * errors and error pages, the result table and the shared CLI commands), with node:test
 * `describe`/`test`. Call it at the
 * top level of a test file. Skips name tests by title and must each state a reason; a skip that
 * names no test of the suite fails, so stale skips do not linger.
 */
export function runConformance(adapter: ConformanceAdapter): void {
  const registry = createRegistry(adapter);
  describe(`conformance: ${adapter.name}`, () => {
    const context = createSuiteContext(adapter, registry);
    pathCases(context);
    verbCases(context);
    parameterCases(context);
    decoratorCases(context);
    inheritanceCases(context);
    orderCases(context);
    slashCases(context);
    lifecycleCases(context);
    overrideCases(context);
    conflictCases(context);
    securityCases(context);
    csrfRouteCases(context);
    rateLimitCases(context);
    idempotencyCases(context);
    errorsBeforeViewCases(context);
    errorPageCases(context);
    resultCases(context);
    declaredSchemaCases(context);
    optionCases(context);
    commandCases(context);
    test("the skip list names only tests of this suite", () => {
      const unknown = [...registry.skips.keys()].filter((name) => !registry.titles.has(name));
      assert.deepEqual(unknown, [], `skip entries that name no conformance test: ${unknown.join("; ")}`);
    });
  });
}

/**
 * Errors of the conformance suite and its CLI, each with a stable code (see docs/errors.md).
 */
import { createError } from "routing-kernel";

/** An adapter's skip entry gives no reason. */
export const E_CONFORMANCE_SKIP_REASON = createError(
  "E_CONFORMANCE_SKIP_REASON",
  500,
  (adapter: string, tests: string) =>
    `conformance(${adapter}): every skip must state its reason; add a "reason" to the skip of: ${tests}.`,
);

/** Two conformance tests share a title, so a skip list could not tell them apart. */
export const E_CONFORMANCE_DUPLICATE_TEST = createError(
  "E_CONFORMANCE_DUPLICATE_TEST",
  500,
  (title: string) =>
    `conformance: two tests are titled "${title}"; titles must be unique because skip lists name them.`,
);

/** The CLI could not find the framework package it was asked to test. */
export const E_CONFORMANCE_FRAMEWORK_NOT_FOUND = createError(
  "E_CONFORMANCE_FRAMEWORK_NOT_FOUND",
  500,
  (framework: string, from: string) =>
    `conformance: cannot find the package "${framework}" from ${from}. Install it, run from its workspace, or pass the path of its folder.`,
);

/** The framework's `./testing` entry is missing or exports no usable `conformanceAdapter`. */
export const E_CONFORMANCE_NO_ADAPTER = createError(
  "E_CONFORMANCE_NO_ADAPTER",
  500,
  (framework: string, problem: string) =>
    `conformance: ${framework} ${problem}. Export "conformanceAdapter" (a ConformanceAdapter from the conformance package) from "${framework}/testing".`,
);

#!/usr/bin/env node
// `npm test`: the machine's set-up first (test-setup.mjs: system packages, local servers), then
// install with the pinned pnpm, build every package, then format and lint (Biome), publint, typecheck, the API reports,
// every package's tests one package at a time (they share the real databases) and the repository
// checks. Every step after the build runs even when an earlier one failed, so one run shows every
// failure; the exit code is non-zero when any step failed.
import { spawnSync } from "node:child_process";
import { pnpm, pnpmEnv, pnpmSpec, root } from "./pnpm.mjs";
import { runSetup } from "./test-setup.mjs";

const step = (title) => console.log(`\n=== ${title}`);
const failed = [];
const attempt = (title, command, args) => {
  step(title);
  const result = spawnSync(command, args, { stdio: "inherit", cwd: root, env: pnpmEnv() });
  if (result.status !== 0) failed.push(title);
};

// Fails early, with the command to run, when a program the tests need is missing and cannot be installed.
if (!runSetup()) process.exit(1);
step("install");
pnpm(["install", "--frozen-lockfile"]);
step("build");
pnpm(["exec", "turbo", "run", "build", "--output-logs=errors-only"]);
// Formatting and lint rules of the whole tree (biome.jsonc); `npx biome check --write .` fixes most findings.
attempt("format and lint (Biome)", "npx", [
  "-y",
  pnpmSpec,
  "exec",
  "biome",
  "ci",
  "--error-on-warnings",
  "--diagnostic-level=warn",
  ".",
]);
attempt("lint (publint) and typecheck", "npx", [
  "-y",
  pnpmSpec,
  "exec",
  "turbo",
  "run",
  "lint",
  "typecheck",
  "--output-logs=errors-only",
  "--continue",
]);
// The built declarations against the committed API reports (packages/*/api): a changed public API shows in the diff.
attempt("API reports (api-extractor)", process.execPath, ["scripts/api-report.mjs", "check"]);
attempt("tests of every package", "npx", [
  "-y",
  pnpmSpec,
  "exec",
  "turbo",
  "run",
  "test",
  "--concurrency=1",
  "--continue",
]);
attempt("repository checks", process.execPath, ["scripts/run-tests.mjs", "test"]);

console.log(failed.length ? `\nFAILED: ${failed.join("; ")}` : "\nAll steps passed.");
process.exit(failed.length ? 1 : 0);

/**
 * scripts/run-tests.mjs ends its output with the tests that failed (file, name and the first lines
 * of the error) and adds them to the file FW_TEST_FAILURES names, which npm test prints again after
 * every pass: a CI log cut to its last lines still says what failed.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";

const runTests = fileURLToPath(new URL("../scripts/run-tests.mjs", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "run-tests-report-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs run-tests.mjs over one test file with `source` in a fresh folder. */
function runOver(name: string, source: string) {
  const folder = join(dir, name);
  mkdirSync(join(folder, "test"), { recursive: true });
  writeFileSync(join(folder, "test", "sample.test.ts"), source);
  const failures = join(folder, "failures.txt");
  const run = spawnSync(process.execPath, [runTests, "--parallel"], {
    cwd: folder,
    encoding: "utf8",
    // Without NODE_TEST_CONTEXT, which would make the inner run report to this one instead of printing.
    env: { ...process.env, NODE_TEST_CONTEXT: undefined, FW_TEST_FAILURES: failures },
  });
  let recorded = "";
  try {
    recorded = readFileSync(failures, "utf8");
  } catch {}
  return { status: run.status, stdout: run.stdout, recorded };
}

test("the end of the output names each failed test with its error, and the failures file gets the same list", () => {
  const { status, stdout, recorded } = runOver(
    "failing",
    [
      'import assert from "node:assert/strict";',
      'import { describe, test } from "node:test";',
      'describe("a suite", () => {',
      '  test("passes", () => {});',
      '  test("compares", () => assert.equal(1, 2));',
      "});",
      'test("throws", () => { throw new Error("first line\\nsecond line"); });',
    ].join("\n"),
  );
  assert.equal(status, 1);
  const end = stdout.slice(stdout.lastIndexOf("run-tests ("));
  assert.match(end, /2 test\(s\) failed:/);
  assert.match(end, /sample\.test\.ts: compares \(Expected values to be strictly equal: \/ 1 !== 2\)/);
  assert.match(end, /sample\.test\.ts: throws \(first line \/ second line\)/);
  assert.doesNotMatch(end, /: passes|: a suite/, "only the failed tests, not their suite or the passing ones");
  assert.equal(recorded.trim(), end.trim());
});

test("a run with no failure prints no list and writes nothing", () => {
  const { status, stdout, recorded } = runOver(
    "passing",
    ['import { test } from "node:test";', 'test("passes", () => {});'].join("\n"),
  );
  assert.equal(status, 0);
  assert.doesNotMatch(stdout, /failed:/);
  assert.equal(recorded, "");
});

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createRegistry } from "../src/suite.js";
import { miniAdapter } from "./mini-adapter.js";

const fixture = fileURLToPath(new URL("./fixtures/skip-run.ts", import.meta.url));

function runWithSkips(tests: string[]) {
  // Without NODE_TEST_CONTEXT the child reports in TAP instead of the parent runner's protocol.
  const env = { ...process.env };
  delete env["NODE_TEST_CONTEXT"];
  const result = spawnSync(
    process.execPath,
    ["--conditions=source", "--import", "tsx", "--test-reporter=tap", fixture, ...tests],
    {
      encoding: "utf8",
      env,
      cwd: fileURLToPath(new URL("..", import.meta.url)),
    },
  );
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

describe("skip lists", () => {
  test("a skipped test shows its reason and does not run", () => {
    const { status, out } = runWithSkips(["async views are awaited"]);
    assert.equal(status, 0, out.slice(-2000));
    assert.match(out, /ok \d+ - async views are awaited # SKIP known gap of the mini adapter/);
  });

  test("a skip naming no test of the suite fails the run, naming it", () => {
    const { status, out } = runWithSkips(["no such conformance test"]);
    assert.notEqual(status, 0);
    assert.match(out, /not ok \d+ - the skip list names only tests of this suite/);
    assert.match(out, /no such conformance test/);
  });

  test("a skip without a reason is refused", () => {
    const adapter = { ...miniAdapter(false), skip: [{ reason: "  ", tests: ["async views are awaited"] }] };
    assert.throws(() => createRegistry(adapter), /every skip must state its reason/);
  });
});

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { findFrameworkDir, loadAdapter } from "../src/cli.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
const bin = fileURLToPath(new URL("../bin/conformance.js", import.meta.url));

function cli(args: string[], cwd = packageDir) {
  const env = { ...process.env };
  delete env["NODE_TEST_CONTEXT"];
  const result = spawnSync(
    process.execPath,
    ["--conditions=source", "--import", "tsx", "--test-reporter=tap", bin, ...args],
    { cwd, env, encoding: "utf8" },
  );
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

describe("conformance CLI", () => {
  test("runs the suite against <framework>/testing's conformanceAdapter, skips shown with reasons", () => {
    const { status, out } = cli(["./test/fixtures/fake-framework"]);
    assert.equal(status, 0, out.slice(-3000));
    assert.match(out, /conformance: mini Koa adapter/);
    assert.match(out, /# SKIP exercised by the CLI test/);
    assert.match(out, /# fail 0/);
  });

  test("without a framework it prints usage and exits 2", () => {
    const { status, out } = cli([]);
    assert.equal(status, 2);
    assert.match(out, /usage: conformance <framework>/);
  });

  test("an unknown framework fails naming it", () => {
    const { status, out } = cli(["fw-does-not-exist"]);
    assert.equal(status, 1);
    assert.match(out, /cannot find the package "fw-does-not-exist"/);
  });

  test("a ./testing entry without conformanceAdapter fails with E_CONFORMANCE_NO_ADAPTER", async () => {
    await assert.rejects(
      loadAdapter("./test/fixtures/no-adapter", packageDir),
      (error: { code?: string; message?: string }) => {
        assert.equal(error.code, "E_CONFORMANCE_NO_ADAPTER");
        assert.match(String(error.message), /exports no "conformanceAdapter"/);
        return true;
      },
    );
  });

  test("finds workspace packages by name from the repository root (as pnpm conformance does)", () => {
    assert.equal(findFrameworkDir("routing-kernel", repoRoot), `${repoRoot}packages/routing-kernel`);
    assert.equal(findFrameworkDir("@fwkit/conformance", packageDir).replace(/\/$/, ""), packageDir.replace(/\/$/, ""));
  });
});

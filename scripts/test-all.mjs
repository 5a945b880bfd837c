#!/usr/bin/env node
// `npm test`: the machine's set-up first (test-setup.mjs: system packages, local servers), then the
// whole suite on Node 24 and the packages' own tests on Node 22 (scripts/node-runtime.mjs fetches
// either from the npm registry when the machine runs another Node). On Node 24: install with the
// pinned pnpm, build every package, format and lint (Biome), publint, typecheck, the API reports,
// every package's tests one package at a time (they share the real databases), the repository
// checks and apps made from the packed packages (tarball-apps.mjs). Then on Node 22, in a copy of
// the work tree with its own node_modules (native modules are built per Node version): every
// package's tests again, but for the browser, balancer and cluster files that node-runtime.mjs's
// SECOND_PASS_LEAVES names. That copy is made, and installed on Node 22 in the background, as soon
// as the first pass has built, so the install overlaps the first pass's checks and tests. Every step
// after the build runs even when an earlier one failed, so one run shows every failure; the exit
// code is non-zero when any step failed. FW_TEST_NODE=current runs the suite once, on the running Node, with no Node 22 pass.
import { spawn, spawnSync } from "node:child_process";
import { closeSync, cpSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { CI_NODE, ensureNode, majorOf, runtimeEnv } from "./node-runtime.mjs";
import { ensureNativeModules, pnpmEnv, pnpmSpec, root } from "./pnpm.mjs";
import { runSetup } from "./test-setup.mjs";

const self = fileURLToPath(import.meta.url);
const started = Date.now();
const minutes = () => `${((Date.now() - started) / 60000).toFixed(1)} min`;
const step = (title) => console.log(`\n=== ${title} (Node ${process.versions.node}, at ${minutes()})`);

/** Runs one step in `cwd`; returns whether it passed. */
const run = (title, command, args, cwd = root, env = pnpmEnv(cwd)) => {
  step(title);
  const result = spawnSync(command, args, { stdio: "inherit", cwd, env });
  return result.status === 0;
};
const pnpmArgs = (...args) => ["-y", pnpmSpec, ...args];

// The pass on the supported Node that is not the one running: re-run this script under it.
if (process.env.FW_TEST_PASS === undefined) {
  // Fails early, with the command to run, when a program the tests need is missing and cannot be installed.
  if (!runSetup()) process.exit(1);
  // Every run-tests run of both passes adds its failed tests here; they are printed again at the end.
  process.env.FW_TEST_FAILURES = join(tmpdir(), `fwkit-test-failures-${process.pid}.txt`);
  writeFileSync(process.env.FW_TEST_FAILURES, "");
  if (process.env.FW_TEST_NODE === "current") process.exit(endWith(fullSuite(root)));
  const full = majorOf(process.versions.node) === majorOf(CI_NODE.full) ? null : ensureNode(CI_NODE.full);
  const onSecondNode = majorOf(process.versions.node) === majorOf(CI_NODE.packages);
  // The second pass's copy and install start as soon as the first pass has built, and run beside
  // its checks and tests (which often leave the CPU waiting on databases and subprocesses) instead
  // of after them. A first pass in a child process tells it by a marker file.
  let preparing = null;
  const prepare = onSecondNode ? undefined : () => (preparing = prepareSecondPass());
  const fullStatus = full ? await reRunUntilBuilt(full, prepare) : fullSuite(root, prepare);
  const other = onSecondNode ? null : (preparing?.runtime ?? ensureNode(CI_NODE.packages));
  // In this process when the machine's Node is the second one; run-tests reads FW_TEST_PASS either way.
  if (!other) process.env.FW_TEST_PASS = "packages";
  const prepared = preparing ? await preparing.done : false;
  const packagesStatus = other ? reRun(other, "packages", prepared) : packagesSuite();
  console.log(
    `\nnpm test: the whole suite on Node ${full?.version ?? process.versions.node} ${fullStatus === 0 ? "passed" : "FAILED"}; the packages on Node ${other?.version ?? process.versions.node} ${packagesStatus === 0 ? "passed" : "FAILED"} (${minutes()} in all).`,
  );
  process.exit(endWith(fullStatus === 0 && packagesStatus === 0 ? 0 : 1));
} else if (process.env.FW_TEST_PASS === "full") {
  const marker = process.env.FW_TEST_BUILT_MARKER;
  process.exit(fullSuite(root, marker ? () => writeFileSync(marker, "") : undefined));
} else if (process.env.FW_TEST_PASS === "install") {
  process.exit(install(copyOf(majorOf(process.versions.node))) ? 0 : 1);
} else {
  process.exit(packagesSuite());
}

/** Prints the failed tests that the passes' run-tests runs recorded, after all other output; returns `status`. */
function endWith(status) {
  const file = process.env.FW_TEST_FAILURES;
  const failures = file && existsSync(file) ? readFileSync(file, "utf8") : "";
  if (failures) console.log(`\nThe failed tests of this run:\n${failures}`);
  if (file) rmSync(file, { force: true });
  return status;
}

function reRun(runtime, pass, prepared = false) {
  const result = spawnSync(runtime.node, [self], {
    stdio: "inherit",
    cwd: root,
    env: { ...runtimeEnv(runtime), FW_TEST_PASS: pass, ...(prepared ? { FW_TEST_PREPARED: "1" } : {}) },
  });
  return result.status ?? 1;
}

/**
 * The first pass on `runtime` in a child process; `built` (when given) is called once that pass
 * has built, which it tells by writing a marker file. Resolves with the pass's exit code.
 */
function reRunUntilBuilt(runtime, built) {
  const marker = join(tmpdir(), `fwkit-first-pass-built-${process.pid}`);
  rmSync(marker, { force: true });
  const child = spawn(runtime.node, [self], {
    stdio: "inherit",
    cwd: root,
    env: { ...runtimeEnv(runtime), FW_TEST_PASS: "full", ...(built ? { FW_TEST_BUILT_MARKER: marker } : {}) },
  });
  const watch = built
    ? setInterval(() => {
        if (!existsSync(marker)) return;
        clearInterval(watch);
        rmSync(marker, { force: true });
        built();
      }, 2000)
    : undefined;
  return new Promise((resolve) => {
    child.once("error", () => resolve(1));
    child.once("exit", (code) => resolve(code ?? 1));
  }).finally(() => {
    clearInterval(watch);
    rmSync(marker, { force: true });
  });
}

/** The folder of the second pass's copy of the work tree, for a Node major version. */
function copyOf(major) {
  return join(tmpdir(), `fwkit-node${major}-pass`);
}

/**
 * The copy of the work tree for the packages' pass (sources and the builds, not node_modules), so
 * its native modules never replace the first pass's.
 */
function copyTree(copy) {
  step(`copy of the work tree for the packages' pass: ${copy}`);
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  cpSync(root, copy, {
    recursive: true,
    filter: (source) =>
      !relative(root, source)
        .split(sep)
        .some((part) => part === "node_modules" || part === ".git"),
  });
}

/**
 * Right after the first pass's build: fetches the second Node, copies the built tree and starts its
 * install on that Node in the background, its output kept in a log that is printed when the second
 * pass begins. Returns the runtime and a promise of whether the install passed.
 */
function prepareSecondPass() {
  const runtime = ensureNode(CI_NODE.packages);
  const copy = copyOf(majorOf(runtime.version));
  copyTree(copy);
  const log = join(tmpdir(), `fwkit-node${majorOf(runtime.version)}-install.log`);
  const out = openSync(log, "w");
  console.log(`(the install for Node ${runtime.version} runs in the background; its output: ${log})`);
  const child = spawn(runtime.node, [self], {
    stdio: ["ignore", out, out],
    cwd: root,
    env: { ...runtimeEnv(runtime), FW_TEST_PASS: "install" },
  });
  closeSync(out);
  const done = new Promise((resolve) => {
    child.once("error", () => resolve(false));
    child.once("exit", (code) => resolve(code === 0));
  }).then((ok) => {
    step(`install for Node ${runtime.version}, run in the background during the first pass`);
    process.stdout.write(readFileSync(log, "utf8"));
    return ok;
  });
  return { runtime, done };
}

function install(cwd) {
  step("install");
  const env = pnpmEnv(cwd);
  if (spawnSync("npx", pnpmArgs("install", "--frozen-lockfile"), { stdio: "inherit", cwd, env }).status !== 0) {
    return false;
  }
  return ensureNativeModules(cwd);
}

/** The first pass; `built` is called once the build has passed. */
function fullSuite(cwd, built = () => {}) {
  const failed = [];
  const attempt = (title, command, args) => {
    if (!run(title, command, args, cwd)) failed.push(title);
  };
  if (!install(cwd) || !run("build", "npx", pnpmArgs("exec", "turbo", "run", "build", "--output-logs=errors-only"))) {
    console.error("\nThe install or the build failed; nothing else was run.");
    return 1;
  }
  built();
  // Formatting and lint rules of the whole tree (biome.jsonc); `npx biome check --write .` fixes most findings.
  attempt(
    "format and lint (Biome)",
    "npx",
    pnpmArgs("exec", "biome", "ci", "--error-on-warnings", "--diagnostic-level=warn", "."),
  );
  attempt(
    "lint (publint) and typecheck",
    "npx",
    pnpmArgs("exec", "turbo", "run", "lint", "typecheck", "--output-logs=errors-only", "--continue"),
  );
  // The built declarations against the committed API reports (packages/*/api): a changed public API shows in the diff.
  attempt("API reports (api-extractor)", process.execPath, ["scripts/api-report.mjs", "check"]);
  attempt("tests of every package", "npx", pnpmArgs("exec", "turbo", "run", "test", "--concurrency=1", "--continue"));
  attempt("repository checks", process.execPath, ["scripts/run-tests.mjs", "--parallel", "test"]);
  // The public packages as a registry user installs them: packed, installed outside the repository,
  // and an fw-a and an fw-b app made and run with them alone (scripts/tarball-apps.mjs).
  attempt("packages installed from their tarballs", process.execPath, ["scripts/tarball-apps.mjs"]);
  // What a release would publish (.changeset/README.md): every public package packed, nothing sent.
  attempt("publish, dry run", "npx", pnpmArgs("publish", "-r", "--dry-run", "--no-git-checks"));
  console.log(
    failed.length
      ? `\nNode ${process.versions.node}: FAILED: ${failed.join("; ")}`
      : `\nNode ${process.versions.node}: all steps passed.`,
  );
  return failed.length ? 1 : 0;
}

/**
 * The packages' own tests on the second supported Node, in a copy of the work tree (sources and the
 * builds, not node_modules), so its native modules never replace the first pass's.
 */
function packagesSuite() {
  const copy = copyOf(majorOf(process.versions.node));
  // FW_TEST_PREPARED: the first pass made the copy and installed it already (prepareSecondPass).
  if (process.env.FW_TEST_PREPARED !== "1") {
    copyTree(copy);
    if (!install(copy)) return 1;
  }
  const ok = run(
    "tests of every package",
    "npx",
    pnpmArgs("exec", "turbo", "run", "test", "--concurrency=1", "--continue", "--filter=./packages/*"),
    copy,
  );
  console.log(`\nNode ${process.versions.node}: the packages' tests ${ok ? "passed" : "FAILED"}.`);
  if (ok && existsSync(copy)) rmSync(copy, { recursive: true, force: true });
  return ok ? 0 : 1;
}

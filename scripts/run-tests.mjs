#!/usr/bin/env node
// Runs node's test runner over TypeScript test files, loading sources through ts-hooks.mjs.
// The files are listed here rather than globbed by `--test`, so node_modules, dist and dot-folders are skipped.
// Usage: node scripts/run-tests.mjs [dir ...]   (default: src test, relative to the cwd)
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { SECOND_PASS_LEAVES } from "./node-runtime.mjs";

// Two options of this script, not node's: --parallel runs the files of the folders several at once,
// and --one-process runs them all in one process (`--test-isolation=none`, for pure unit tests). A
// package turns one on in its `test` script once its files follow the rule in CONTRIBUTING.md,
// "Tests side by side".
const OWN = new Set(["--parallel", "--one-process"]);
const dirs = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const own = new Set(process.argv.slice(2).filter((a) => OWN.has(a)));
const extra = process.argv.slice(2).filter((a) => a.startsWith("-") && !OWN.has(a));
const roots = (dirs.length > 0 ? dirs : ["src", "test"]).map((d) => resolve(d)).filter((d) => existsSync(d));

/** @param {string} dir @returns {string[]} */
function collect(dir) {
  const out = [];
  for (const entry of readdirSync(dir)) {
    if (entry === "node_modules" || entry === "dist" || entry.startsWith(".")) continue;
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...collect(full));
    else if (/\.test\.(ts|mts|js|mjs)$/.test(entry)) out.push(full);
  }
  return out;
}

const repository = resolve(fileURLToPath(new URL("..", import.meta.url)));
const repoPath = (file) => relative(repository, file).split(sep).join("/");
const all = roots.flatMap((r) => (statSync(r).isDirectory() ? collect(r) : [r])).sort();
// The packages' pass of npm test on its second Node leaves some files to the first (node-runtime.mjs).
const secondPass = process.env.FW_TEST_PASS === "packages";
const left = secondPass ? all.filter((file) => SECOND_PASS_LEAVES.some((rule) => rule.test(repoPath(file)))) : [];
const files = all.filter((file) => !left.includes(file));
if (left.length > 0) {
  console.log(
    `run-tests: on Node ${process.versions.node} (the packages' pass) ${left.length} file(s) run on the first pass's Node only: ${left.map(repoPath).join(", ")}`,
  );
}
if (files.length === 0) {
  console.error(`run-tests: no *.test.ts files under ${roots.join(", ") || "(nothing)"}`);
  process.exit(1);
}
// The default per-test (and per-hook) timeout only catches a hang, so it is sized for a 2-core
// machine under heavy load (a load average of 20 makes a CLI run or a build ten times slower), not
// for a quiet one: a test whose work has a known size sets its own timeout from that work. Pass
// --test-timeout=<ms> after the files' folders to change it for one run.
const DEFAULT_TIMEOUT_MS = 600_000;
// Unless the caller chose its own reporters: the usual spec output, and each file's time
// (test-file-times.mjs), of which the slowest are printed at the end.
const ownReporters = extra.some((a) => a.startsWith("--test-reporter"));
const timesDir = ownReporters ? null : mkdtempSync(join(tmpdir(), "run-tests-"));
const reporters = timesDir
  ? [
      "--test-reporter=spec",
      "--test-reporter-destination=stdout",
      `--test-reporter=${join(repository, "scripts", "test-file-times.mjs")}`,
      `--test-reporter-destination=${join(timesDir, "times.tsv")}`,
    ]
  : [];
// Node runs one file at a time where it sees two cores (availableParallelism() - 1); the files
// mostly wait on databases, subprocesses and browsers, so one more than the cores keeps them busy.
// FW_TEST_CONCURRENCY sets it for a run (1: one file at a time, as before).
const concurrency = Number(process.env.FW_TEST_CONCURRENCY || Math.max(2, availableParallelism() + 1));
if (!Number.isInteger(concurrency) || concurrency < 1) {
  console.error(
    `run-tests: FW_TEST_CONCURRENCY must be a whole number of 1 or more, not ${process.env.FW_TEST_CONCURRENCY}`,
  );
  process.exit(1);
}
const parallel = own.has("--parallel") && !extra.some((a) => a.startsWith("--test-concurrency"));
/** Node 22 (22.23 included) knows it only as --experimental-test-isolation. */
const isolationFlag = () =>
  spawnSync(process.execPath, ["--test-isolation=none", "-e", ""]).status === 0
    ? "--test-isolation=none"
    : "--experimental-test-isolation=none";
// A file whose `before` failed can leave a server or a socket open, and its process would then
// never end and hold the whole run: --test-force-exit ends it once its tests have reported.
const modes = [
  "--test-force-exit",
  ...(parallel ? [`--test-concurrency=${concurrency}`] : []),
  ...(own.has("--one-process") ? [isolationFlag()] : []),
];
const started = Date.now();
const result = spawnSync(
  process.execPath,
  [
    "--conditions=source",
    "--import",
    pathToFileURL(join(repository, "scripts", "ts-hooks.mjs")).href,
    "--test",
    `--test-timeout=${DEFAULT_TIMEOUT_MS}`,
    ...reporters,
    ...modes,
    ...extra,
    ...files,
  ],
  { stdio: "inherit", env: process.env },
);
if (timesDir) {
  const times = existsSync(join(timesDir, "times.tsv")) ? readFileSync(join(timesDir, "times.tsv"), "utf8") : "";
  const lines = times.split("\n").filter(Boolean);
  const rows = lines.filter((line) => !line.startsWith("fail\t"));
  const failures = lines
    .filter((line) => line.startsWith("fail\t"))
    .map((line) => {
      const [, file, name, message] = line.split("\t");
      return `  ${repoPath(file)}: ${name}${message ? ` (${message.slice(0, 200)})` : ""}`;
    });
  const inTests = rows.reduce((sum, line) => sum + Number(line.split("\t")[0]), 0);
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(
    parallel
      ? `\nrun-tests: ${files.length} file(s) in ${seconds} s, ${concurrency} at a time, ${inTests.toFixed(0)} s in tests added up over the files; the slowest files (s in tests, passed/failed):`
      : `\nrun-tests: ${files.length} file(s) in ${seconds} s, ${inTests.toFixed(0)} s of it in tests (the rest starts the files' processes and loads their modules); the slowest files (s in tests, passed/failed):`,
  );
  for (const line of rows.slice(0, 5)) {
    const [seconds, pass, fail, file] = line.split("\t");
    console.log(`  ${seconds.padStart(6)}  ${pass}/${fail}  ${repoPath(file)}`);
  }
  if (failures.length > 0) {
    const where = `Node ${process.versions.node}, ${repoPath(process.cwd()) || "."}`;
    const list = `run-tests (${where}): ${failures.length} test(s) failed:\n${failures.join("\n")}\n`;
    console.log(`\n${list}`);
    // npm test (test-all.mjs) prints every run's failures again at its end, after the other packages' output.
    if (process.env.FW_TEST_FAILURES) appendFileSync(process.env.FW_TEST_FAILURES, list);
  }
  rmSync(timesDir, { recursive: true, force: true });
}
process.exit(result.status ?? 1);

#!/usr/bin/env node
// Runs node's test runner over TypeScript test files, loading sources through tsx.
// The files are listed here rather than globbed by `--test`, so node_modules, dist and dot-folders are skipped.
// Usage: node scripts/run-tests.mjs [dir ...]   (default: src test, relative to the cwd)
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const dirs = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const extra = process.argv.slice(2).filter((a) => a.startsWith("-"));
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

const files = roots.flatMap((r) => (statSync(r).isDirectory() ? collect(r) : [r])).sort();
if (files.length === 0) {
  console.error(`run-tests: no *.test.ts files under ${roots.join(", ") || "(nothing)"}`);
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  ["--conditions=source", "--import", "tsx", "--test", "--test-timeout=180000", ...extra, ...files],
  { stdio: "inherit", env: process.env },
);
process.exit(result.status ?? 1);

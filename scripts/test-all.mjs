#!/usr/bin/env node
// `npm test`: install with the pinned pnpm, build every package, lint (publint), then run every
// package's tests one package at a time (they share the real databases) and the repository checks.
import { spawnSync } from "node:child_process";
import { pnpm, pnpmEnv, root } from "./pnpm.mjs";

const step = (title) => console.log(`\n=== ${title}`);
step("install");
pnpm(["install", "--frozen-lockfile"]);
step("build");
pnpm(["exec", "turbo", "run", "build", "--output-logs=errors-only"]);
step("lint (publint) and typecheck");
pnpm(["exec", "turbo", "run", "lint", "typecheck", "--output-logs=errors-only"]);
step("tests");
pnpm(["exec", "turbo", "run", "test", "--concurrency=1", "--continue"]);
step("repository checks");
const repo = spawnSync(process.execPath, ["scripts/run-tests.mjs", "test"], { stdio: "inherit", cwd: root, env: pnpmEnv() });
process.exit(repo.status ?? 1);

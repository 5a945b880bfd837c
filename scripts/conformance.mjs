#!/usr/bin/env node
// `pnpm conformance fw-a` / `pnpm conformance fw-b`: runs the shared routing suite against a
// framework of this workspace, from its TypeScript sources (no build needed), under node's test
// runner. Exits non-zero when a test fails or the framework has no conformance adapter.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
if (args.length === 0) {
  console.error("usage: pnpm conformance <framework>   (fw-a or fw-b)");
  process.exit(2);
}
const result = spawnSync(
  process.execPath,
  ["--conditions=source", "--import", "tsx", join(root, "packages/conformance/bin/conformance.js"), ...args],
  { stdio: "inherit", cwd: root, env: process.env },
);
process.exit(result.status ?? 1);

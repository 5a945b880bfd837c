#!/usr/bin/env node
// `pnpm test:security`: the security suite's fast form (test/) and the long form (test-long/:
// sqlmap against a form and a JSON route of scaffolded fw-a and fw-b apps). sqlmap is Debian's
// package; it is installed with apt-get when missing and this runs as root, else the script stops
// with the command to run.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const suite = join(dirname(fileURLToPath(import.meta.url)), "..");
const has = (command) => spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;

if (!has("sqlmap")) {
  const install = "apt-get install -y sqlmap";
  if (process.getuid?.() !== 0) {
    console.error(`sqlmap is missing. Install it with:\n  sudo ${install}\nthen run pnpm test:security again.`);
    process.exit(1);
  }
  console.log(`sqlmap is missing: ${install}`);
  let result = spawnSync("sh", ["-c", install], { stdio: "inherit" });
  if (result.status !== 0) {
    // A fresh machine may have no package lists yet.
    spawnSync("apt-get", ["update"], { stdio: "inherit" });
    result = spawnSync("sh", ["-c", install], { stdio: "inherit" });
  }
  if (result.status !== 0 || !has("sqlmap")) {
    console.error(`Installing sqlmap failed. Run:\n  ${install}`);
    process.exit(1);
  }
}

const run = spawnSync(process.execPath, [join(suite, "..", "..", "scripts", "run-tests.mjs"), "test", "test-long"], {
  cwd: suite,
  stdio: "inherit",
});
process.exit(run.status ?? 1);

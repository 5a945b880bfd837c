// The one place the pinned pnpm version is used: everything reaches pnpm through npx, nothing global.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Repository root. */
export const root = join(dirname(fileURLToPath(import.meta.url)), "..");
/** `pnpm@x.y.z` from the root package.json's packageManager field. */
export const pnpmSpec = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).packageManager;

/**
 * Puts a `pnpm` shim on PATH (turbo runs package scripts through the package manager's binary)
 * and returns the environment to pass to child processes.
 */
export function pnpmEnv() {
  const shimDir = join(root, "node_modules", ".pnpm-shim");
  mkdirSync(shimDir, { recursive: true });
  const shim = join(shimDir, "pnpm");
  writeFileSync(shim, `#!/bin/sh\nexec npx -y ${pnpmSpec} "$@"\n`);
  chmodSync(shim, 0o755);
  return { ...process.env, PATH: `${shimDir}:${join(root, "node_modules", ".bin")}:${process.env.PATH}` };
}

/** Runs pnpm with the pinned version; exits the process on failure. */
export function pnpm(args, options = {}) {
  const result = spawnSync("npx", ["-y", pnpmSpec, ...args], {
    stdio: "inherit",
    cwd: root,
    env: pnpmEnv(),
    ...options,
  });
  if (result.status !== 0) {
    console.error(`\npnpm ${args.join(" ")} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}

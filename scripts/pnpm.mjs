// The one place the pinned pnpm version is used: everything reaches pnpm through npx, nothing global.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Repository root. */
export const root = join(dirname(fileURLToPath(import.meta.url)), "..");
/** `pnpm@x.y.z` from the root package.json's packageManager field. */
export const pnpmSpec = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).packageManager;

/**
 * Puts a `pnpm` shim on PATH (turbo runs package scripts through the package manager's binary)
 * and returns the environment to pass to child processes working in `dir` (the root by default).
 */
export function pnpmEnv(dir = root) {
  const shimDir = join(dir, "node_modules", ".pnpm-shim");
  mkdirSync(shimDir, { recursive: true });
  const shim = join(shimDir, "pnpm");
  // turbo calls the shim once per package and task: starting the pinned pnpm directly from npx's
  // cache saves npx's own start (about 1 to 2 s of CPU a call) on every one of them.
  const cli = pinnedPnpmCli();
  writeFileSync(shim, cli ? `#!/bin/sh\nexec node "${cli}" "$@"\n` : `#!/bin/sh\nexec npx -y ${pnpmSpec} "$@"\n`);
  chmodSync(shim, 0o755);
  return { ...process.env, PATH: `${shimDir}:${join(dir, "node_modules", ".bin")}:${process.env.PATH}` };
}

let pinnedCli;
/**
 * The pinned pnpm's `pnpm.cjs` in npx's cache (npx is asked once to put it there), or undefined
 * when it cannot be found (the shim then goes through npx).
 */
function pinnedPnpmCli() {
  if (pinnedCli !== undefined) return pinnedCli || undefined;
  const version = pnpmSpec.split("@")[1];
  const find = () => {
    const npx = join(process.env.npm_config_cache ?? join(homedir(), ".npm"), "_npx");
    if (!existsSync(npx)) return "";
    for (const entry of readdirSync(npx)) {
      const pkg = join(npx, entry, "node_modules", "pnpm");
      try {
        if (JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).version === version) {
          if (existsSync(join(pkg, "bin", "pnpm.cjs"))) return join(pkg, "bin", "pnpm.cjs");
        }
      } catch {}
    }
    return "";
  };
  pinnedCli = find();
  if (!pinnedCli) {
    spawnSync("npx", ["-y", pnpmSpec, "--version"], { stdio: "ignore" });
    pinnedCli = find();
  }
  return pinnedCli || undefined;
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

// Native modules are built for one Node ABI (bcrypt's is ABI-stable, better-sqlite3's is not): a
// tree installed under another Node has them rebuilt before anything loads them.
const NATIVE_PROBES = [
  ["data", "new (require('better-sqlite3'))(':memory:').close()"],
  ["security", "require('bcrypt').hashSync('x', 4)"],
];
const nativeModulesLoad = (dir) =>
  NATIVE_PROBES.every(
    ([pkg, code]) =>
      spawnSync(process.execPath, ["-e", code], { cwd: join(dir, "packages", pkg), stdio: "ignore" }).status === 0,
  );

/** Rebuilds better-sqlite3 and bcrypt when they do not load on the running Node; returns whether they load. */
export function ensureNativeModules(dir = root) {
  if (nativeModulesLoad(dir)) return true;
  console.log(`native modules were built for another Node: rebuilding them for Node ${process.versions.node}`);
  spawnSync("npx", ["-y", pnpmSpec, "rebuild", "-r", "better-sqlite3", "bcrypt"], {
    stdio: "inherit",
    cwd: dir,
    env: pnpmEnv(dir),
  });
  if (nativeModulesLoad(dir)) return true;
  console.error(`better-sqlite3 or bcrypt does not load on Node ${process.versions.node} after a rebuild.`);
  return false;
}

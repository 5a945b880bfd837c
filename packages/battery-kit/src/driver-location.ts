/**
 * Where a battery's optional driver comes from. A driver is an optional peer dependency of the
 * battery, so it is the app's choice: it resolves from the app's folder (as Knex and AdonisJS load
 * their drivers), never from the battery's own location, which may be a framework checkout linked
 * by a `file:` path or npx's cache, holding drivers of other versions or drivers the app never
 * installed. The installed version is checked against the battery's peer range. A battery's
 * regular dependencies resolve from the battery, as Node does.
 *
 * Inside the framework's own checkout the drivers beside the battery count as the app's when the
 * app is one of the checkout's (a pnpm workspace holds both) or declares the driver in its
 * package.json without having installed it yet (an app just made from the checkout, before its
 * `npm install`). A folder with no package.json, or one listing no dependency at all (a test's
 * throwaway app, not a project), has no dependencies of its own: its drivers come from beside the
 * battery.
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { E_DRIVER_VERSION } from "./errors.js";
import { ownPackage, packageDirFrom, packageOf, readManifest, type PackageManifest } from "./package-lookup.js";
import { satisfiesRange } from "./version-range.js";

let appRoot: string | undefined;

/**
 * Sets the app's folder, from which drivers resolve (createHost sets it from the app's config
 * root; the default is the working directory).
 */
export function setDriverRoot(dir: string): void {
  appRoot = resolve(dir);
}

/** The app's folder drivers resolve from. */
export function driverRoot(): string {
  return appRoot ?? process.cwd();
}

/** A located package: its folder, and the folder whose `node_modules` holds it. */
export interface DriverLocation {
  readonly dir: string;
  readonly base: string;
}

/** The battery a `from` URL belongs to: its folder and package.json. */
export interface Battery {
  readonly dir: string;
  readonly manifest: PackageManifest;
}

/** The battery whose file is `from` (an `import.meta.url`). */
export function batteryOf(from: string): Battery {
  const found = ownPackage(dirname(fileURLToPath(from)));
  return found ?? { dir: dirname(fileURLToPath(from)), manifest: {} };
}

const real = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
};

/** The folder of a pnpm workspace holding `dir`, if any. */
function workspaceOf(dir: string): string | undefined {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, "pnpm-workspace.yaml"))) return current;
    if (dirname(current) === current) return undefined;
  }
}

/** The packages the app's package.json lists in its dependency fields (undefined: no readable package.json). */
function declared(root: string): Set<string> | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, unknown>;
    const names = new Set<string>();
    for (const field of ["dependencies", "devDependencies", "optionalDependencies"]) {
      const specs = manifest[field];
      if (typeof specs === "object" && specs !== null) for (const name of Object.keys(specs)) names.add(name);
    }
    return names;
  } catch {
    return undefined;
  }
}

const locationOf = (dir: string, name: string): DriverLocation => ({
  dir,
  // dir is <base>/node_modules/<name>: a require made in <base> finds it.
  base: dir.slice(0, dir.length - `${sep}node_modules${sep}${name.split("/").join(sep)}`.length),
});

/**
 * Finds `specifier`'s package for `battery`: an optional peer from the app (see the file's
 * comment, throwing `E_DRIVER_VERSION` outside the peer range), anything else beside the battery.
 * Undefined when it is not installed where it must be; `reason` then says where it looked.
 */
export function locateDriver(
  battery: Battery,
  specifier: string,
  user: string,
): { location?: DriverLocation; reason: string } {
  const name = packageOf(specifier);
  const range = battery.manifest.peerDependencies?.[name];
  const beside = packageDirFrom(battery.dir, name);
  if (range === undefined || name === "koa")
    return beside
      ? { location: locationOf(beside, name), reason: "" }
      : { reason: `no node_modules/${name} beside ${battery.dir}` };
  const root = driverRoot();
  let dir = packageDirFrom(root, name);
  if (dir === undefined && beside !== undefined) {
    const batteryDir = real(battery.dir);
    const checkout = !batteryDir.split(sep).includes("node_modules");
    const workspace = checkout ? workspaceOf(batteryDir) : undefined;
    const inWorkspace = workspace !== undefined && `${real(root)}${sep}`.startsWith(`${workspace}${sep}`);
    const names = declared(root);
    // No package.json, or one that lists no dependency at all: a test's throwaway app, not a project.
    const throwaway = names === undefined || names.size === 0;
    if (throwaway || (checkout && (inWorkspace || names.has(name)))) dir = beside;
  }
  if (dir === undefined) return { reason: `not installed in the app at ${root}; it needs ${name}@"${range}"` };
  const version = readManifest(dir).version ?? "";
  if (!satisfiesRange(version, range)) throw new E_DRIVER_VERSION(user, name, version, range, dir);
  return { location: locationOf(dir, name), reason: "" };
}

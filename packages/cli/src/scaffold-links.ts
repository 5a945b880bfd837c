import { cpSync, existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, symlinkSync } from "node:fs";
import { dirname, join, relative } from "node:path";

/**
 * How a new app reaches its framework and tools before (and after) its own `npm install`: each is a
 * symbolic link in the app's `node_modules` to the copy the framework uses, with its executables in
 * `node_modules/.bin` (`fw-a`, `tsx`, `tsc`), exactly as npm links a `file:` dependency. npm keeps
 * such links on a later `npm install`, but runs a linked package's install step (a native build:
 * better-sqlite3, bcrypt, esbuild) inside the link's target, which would rebuild the framework's
 * own copy in place. So a package with an install step is never linked: the framework loads its own
 * copy until the app's `npm install` puts one in the app.
 *
 * TypeScript is copied instead (one folder, no dependencies of its own): npm reads a linked
 * package's devDependencies as if it were a project, TypeScript's include chokidar, and npm 11
 * fails ("Cannot read properties of null (reading 'edgesOut')") when the app's package.json
 * overrides one of them at the top level. fw-a's scaffold scopes its chokidar override to
 * nunjucks for the same reason.
 */
const COPIED: ReadonlySet<string> = new Set(["typescript"]);

/** What {@link linkNewApp} did: packages linked, and packages left for the app's `npm install`. */
export interface LinkResult {
  readonly linked: readonly string[];
  /** Packages with an install step (a native build), reached through the framework until `npm install`. */
  readonly leftToInstall: readonly string[];
}

/** Node's lookup of `node_modules/<name>` from `dir` upwards, as the real folder. */
export function packageDirFrom(dir: string, name: string): string | undefined {
  for (let current = dir; ; current = dirname(current)) {
    const candidate = join(current, "node_modules", ...name.split("/"));
    if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
    if (dirname(current) === current) return undefined;
  }
}

/**
 * Whether npm runs a step of its own when it installs the package in `dir`: an install script
 * (`preinstall`, `install`, `postinstall`) or a `binding.gyp` (npm's implicit `node-gyp rebuild`).
 */
export function hasInstallStep(dir: string): boolean {
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { scripts?: Record<string, string> };
  const scripts = manifest.scripts ?? {};
  return (
    ["preinstall", "install", "postinstall"].some((name) => name in scripts) || existsSync(join(dir, "binding.gyp"))
  );
}

/** The executables a package declares: command name -> file inside the package. */
function binsOf(name: string, dir: string): Record<string, string> {
  const bin = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { bin?: string | Record<string, string> })
    .bin;
  if (typeof bin === "string") return { [name.split("/").at(-1)!]: bin };
  return bin ?? {};
}

const exists = (path: string) => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

/**
 * Links `node_modules/<name>` of the app to `target` (or copies it, with `copy`) and each of its
 * executables into `node_modules/.bin`; anything already there is left alone.
 */
export function linkPackage(appDir: string, name: string, target: string, copy = false): void {
  const link = join(appDir, "node_modules", ...name.split("/"));
  if (!exists(link)) {
    mkdirSync(dirname(link), { recursive: true });
    if (copy) cpSync(target, link, { recursive: true });
    else symlinkSync(target, link, "dir");
  }
  const binDir = join(appDir, "node_modules", ".bin");
  for (const [command, file] of Object.entries(binsOf(name, target))) {
    const binLink = join(binDir, command);
    if (exists(binLink)) continue;
    mkdirSync(binDir, { recursive: true });
    // Relative, as npm writes them: `.bin/fw-a -> ../fw-a/bin/fw-a.js`.
    symlinkSync(relative(binDir, join(link, file)), binLink);
  }
}

/**
 * Links each named package of a new app to the copy the framework at `frameworkDir` resolves,
 * unless the app has it already, the framework cannot resolve it, or it has an install step (see
 * the module's note; TypeScript is copied). `aliases` maps a package to the name the app lists it
 * by (see scaffold.ts). Returns what was linked and what was left for `npm install`.
 */
export function linkScaffoldDependencies(
  appDir: string,
  frameworkDir: string,
  names: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
): LinkResult {
  const linked: string[] = [];
  const leftToInstall: string[] = [];
  for (const name of names) {
    // An aliased package sits in node_modules under the name the app lists it by, as npm puts it.
    const as = aliases[name] ?? name;
    if (exists(join(appDir, "node_modules", ...as.split("/")))) continue;
    const found = packageDirFrom(frameworkDir, name);
    if (found === undefined) continue;
    if (hasInstallStep(found)) {
      leftToInstall.push(as);
      continue;
    }
    linkPackage(appDir, as, found, COPIED.has(name));
    linked.push(as);
  }
  return { linked, leftToInstall };
}

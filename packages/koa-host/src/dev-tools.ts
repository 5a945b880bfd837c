/**
 * tsx, esbuild, pino-pretty, swagger-ui-dist and light-my-request (the test client) are
 * development dependencies of the app (its scaffolded package.json lists them in
 * devDependencies), not runtime ones of the frameworks, so a production
 * install (`npm install --omit=dev`) carries none of them. The commands that need one find it in
 * the app first, then beside this package (the workspace, or an install that hoisted it), and
 * name the install command when neither has it.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { E_DEV_TOOL_MISSING } from "./errors.js";
import { importTarget, packageDirFrom, packageOf, readManifest, subpathOf } from "@fwkit/battery-kit/host";

const requireHere = createRequire(import.meta.url);
const HERE = dirname(fileURLToPath(import.meta.url));

/**
 * The file an ES import of a development tool (`tsx`, `tsx/esm/api`, `esbuild`, `pino-pretty`)
 * loads, looked up from `appRoot` (default: the working directory), then from `besideDir` (the
 * folder of the package that needs it, e.g. the command line's), then from this package;
 * `E_DEV_TOOL_MISSING` (naming `npm install -D <name>`) when none has it. `purpose` says what
 * needs it. Resolved by the package's `import` conditions: a CommonJS resolution would pick builds
 * (tsx's `.cjs` API) that do not work when imported.
 */
export function resolveDevTool(
  specifier: string,
  purpose: string,
  appRoot: string = process.cwd(),
  besideDir?: string,
): string {
  const name = packageOf(specifier);
  const subpath = subpathOf(specifier);
  const dir =
    packageDirFrom(resolve(appRoot), name) ??
    (besideDir === undefined ? undefined : packageDirFrom(besideDir, name)) ??
    packageDirFrom(HERE, name);
  if (dir === undefined)
    throw new E_DEV_TOOL_MISSING(name, purpose, `no node_modules/${name} in ${resolve(appRoot)} or its parents`);
  const target = importTarget(readManifest(dir), subpath);
  const file = target === undefined ? undefined : join(dir, target);
  if (file === undefined || !existsSync(file))
    throw new E_DEV_TOOL_MISSING(name, purpose, `${dir} has no ${subpath} to import`);
  return file;
}

/** {@link resolveDevTool} as a `file:` URL, for `import()` and `--import`. */
export function devToolUrl(specifier: string, purpose: string, appRoot?: string, besideDir?: string): string {
  return pathToFileURL(resolveDevTool(specifier, purpose, appRoot, besideDir)).href;
}

/** Imports a development tool found by {@link resolveDevTool}. */
export async function importDevTool<T>(
  specifier: string,
  purpose: string,
  appRoot?: string,
  besideDir?: string,
): Promise<T> {
  return (await import(devToolUrl(specifier, purpose, appRoot, besideDir))) as T;
}

/** Requires a CommonJS development tool found by {@link resolveDevTool} (under tsx, require() skips its hooks). */
export function requireDevTool<T>(specifier: string, purpose: string, appRoot?: string): T {
  return requireHere(resolveDevTool(specifier, purpose, appRoot)) as T;
}

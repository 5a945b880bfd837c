import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { ViewModule } from "routing-kernel";
import { E_VIEW_MODULE_FAILED } from "./errors.js";
import { importAppModule } from "@fwkit/battery-kit";

/** A module an app folder holds: TypeScript or JavaScript, not a test, spec or declaration file. */
const MODULE_FILE = /^(?!.*\.(test|spec|d)\.[cm]?[jt]s$).*\.(ts|mts|js|mjs)$/;

/**
 * The module files under `dir` and its subfolders, in sorted walk order: the one rule by which an
 * app's `views/` and `jobs/` (any folder of modules found by convention) are read. Names starting
 * with `.` or `_` and `node_modules` are skipped, so are tests and declarations.
 */
export function listModuleFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder).sort()) {
      if (entry.startsWith(".") || entry.startsWith("_") || entry === "node_modules") continue;
      const full = join(folder, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (MODULE_FILE.test(entry)) files.push(full);
    }
  };
  walk(dir);
  return files;
}

/** The module names under `views/` (path without extension, `/`-separated), sorted. */
export function listViewModules(viewsDir: string): string[] {
  const names = listModuleFiles(viewsDir).map((file) =>
    relative(viewsDir, file)
      .split(sep)
      .join("/")
      .replace(/\.[cm]?[jt]s$/, ""),
  );
  return [...new Set(names)];
}

/** Finds the file of a module name under `views/` (`.ts` first, then `.mts`, `.js`, `.mjs`). */
export function viewModuleFile(viewsDir: string, name: string): string | undefined {
  for (const extension of [".ts", ".mts", ".js", ".mjs"]) {
    const file = join(viewsDir, `${name}${extension}`);
    if (existsSync(file)) return file;
  }
  return undefined;
}

/**
 * Imports the app's view modules: all of `views/` by default, or only `names` (multi-application).
 * TypeScript files need the tsx loader, which the CLIs register.
 */
export async function loadViewModules(root: string, names?: readonly string[]): Promise<ViewModule[]> {
  const viewsDir = join(root, "views");
  const wanted = names ?? listViewModules(viewsDir);
  const modules: ViewModule[] = [];
  for (const name of wanted) {
    const file = viewModuleFile(viewsDir, name);
    if (!file) throw new E_VIEW_MODULE_FAILED(join(viewsDir, name), "no such file (.ts, .mts, .js or .mjs)");
    try {
      modules.push({ name, exports: await importAppModule(file) });
    } catch (error) {
      throw new E_VIEW_MODULE_FAILED(file, (error as Error).stack ?? String(error));
    }
  }
  return modules;
}

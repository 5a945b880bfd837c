import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { ViewModule } from "routing-kernel";
import { E_VIEW_MODULE_FAILED } from "./errors.js";

const MODULE_FILE = /^(?!.*\.(test|spec|d)\.[cm]?[jt]s$).*\.(ts|mts|js|mjs)$/;

/** The module names under `views/` (path without extension, `/`-separated), sorted. */
export function listViewModules(viewsDir: string): string[] {
  if (!existsSync(viewsDir)) return [];
  const names: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      if (entry.startsWith(".") || entry.startsWith("_") || entry === "node_modules") continue;
      const full = join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (MODULE_FILE.test(entry))
        names.push(
          relative(viewsDir, full)
            .split(sep)
            .join("/")
            .replace(/\.[cm]?[jt]s$/, ""),
        );
    }
  };
  walk(viewsDir);
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
      modules.push({ name, exports: (await import(pathToFileURL(file).href)) as Record<string, unknown> });
    } catch (error) {
      throw new E_VIEW_MODULE_FAILED(file, (error as Error).stack ?? String(error));
    }
  }
  return modules;
}

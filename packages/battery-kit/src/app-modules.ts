/**
 * How the host and the batteries import an app's own files (its entry, views, config, models,
 * jobs). Served from a production server bundle, those files are inside the bundle, registered
 * here by the bundle's entry before anything is imported: importing them from disk instead would
 * load a second copy of the framework beside the bundled one, whose classes the app's views would
 * then extend.
 */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** Imports one bundled app file: its module namespace. */
export type BundledModuleLoader = () => Promise<unknown>;

// Keyed by real path: the bundle's own location is a real path (Node resolves links on import),
// while the host may name the same file through the `current` release link.
const bundled = new Map<string, BundledModuleLoader>();

/**
 * Registers the app files a server bundle holds: `modules` maps each file's path relative to `dir`
 * (`views/main.js`) to the function importing its bundled copy. Called by the bundle's entry.
 */
export function registerBundledModules(dir: string, modules: Readonly<Record<string, BundledModuleLoader>>): void {
  const real = realpathSync(dir);
  for (const [file, load] of Object.entries(modules)) bundled.set(join(real, file), load);
}

/** Whether app files are served from a bundle in this process. */
export function servesBundledModules(): boolean {
  return bundled.size > 0;
}

/**
 * Imports one of the app's files (an absolute path): its bundled copy when a server bundle
 * registered it, else the file itself.
 */
export async function importAppModule(file: string): Promise<Record<string, unknown>> {
  if (bundled.size > 0) {
    let real: string | undefined;
    try {
      real = realpathSync(file);
    } catch {
      // A missing file is reported by import() below, with Node's message.
    }
    const load = real === undefined ? undefined : bundled.get(real);
    if (load) return (await load()) as Record<string, unknown>;
  }
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

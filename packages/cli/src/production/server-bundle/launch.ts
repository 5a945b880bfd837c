/**
 * The executable's side of the server bundle: before anything of the framework loads, a plain
 * `start` line looks for the bundle of the build it is about to serve, and hands the line to it.
 */
import { pathToFileURL } from "node:url";
import { builtAppFolder } from "../built-folder.js";
import type { StartArgs } from "../start-line.js";
import { usableBundle } from "./manifest.js";

/** What serves a plain `start` line: the app's bundle, or the reason its bundle cannot. */
export type BundleChoice =
  | { readonly start: (args: StartArgs) => Promise<void> }
  | { readonly skipped: string }
  | undefined;

/**
 * The server bundle's start function for `args.root`'s build, `{ skipped }` with the reason when
 * the build has a bundle that may not serve or does not load, or undefined when it has none (no
 * build, a build made with `--no-bundle`, or sources served through tsx).
 */
export async function bundledStart(args: StartArgs): Promise<BundleChoice> {
  const dir = builtAppFolder(args.root);
  if (dir === undefined) return undefined;
  const found = usableBundle(dir);
  if (found === undefined || "reason" in found) return found && { skipped: found.reason };
  try {
    const bundle = (await import(pathToFileURL(found.file).href)) as { start: (args: StartArgs) => Promise<void> };
    return { start: bundle.start };
  } catch (error) {
    // The files serve what the bundle could not load; an error of the app's own code then shows again from them.
    return { skipped: `it failed to load (${(error as Error)?.message ?? String(error)})` };
  }
}

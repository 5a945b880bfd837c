/**
 * The processes' side of the server bundle: before anything of the framework loads, a plain
 * `start` line (and each cluster worker) looks for the bundle of the build it is about to serve,
 * and hands itself to it.
 */
import { pathToFileURL } from "node:url";
import { builtAppFolder } from "../built-folder.js";
import type { StartArgs } from "../start-line.js";
import { usableBundle } from "./manifest.js";

/** What a server bundle exports: the start code and the cluster worker's. */
export interface ServerBundle {
  readonly start: (args: StartArgs) => Promise<void>;
  readonly worker: () => Promise<unknown>;
}

/** A loaded bundle, the reason a build's bundle does not serve, or undefined when the build has none. */
export type BundleChoice = ServerBundle | { readonly skipped: string } | undefined;

/**
 * The server bundle of the build in `dir`, loaded; `{ skipped }` with the reason when the build
 * has a bundle that may not serve or does not load (the files then serve: an error of the app's
 * own code shows again from them); undefined when it has none (a build made with `--no-bundle`).
 */
export async function loadBundle(dir: string): Promise<BundleChoice> {
  const found = usableBundle(dir);
  if (found === undefined || "reason" in found) return found && { skipped: found.reason };
  try {
    return (await import(pathToFileURL(found.file).href)) as ServerBundle;
  } catch (error) {
    return { skipped: `it failed to load (${(error as Error)?.message ?? String(error)})` };
  }
}

/** {@link loadBundle} for the build `start` serves from `args.root`; undefined when there is no build (sources through tsx). */
export async function bundledStart(args: StartArgs): Promise<BundleChoice> {
  const dir = builtAppFolder(args.root);
  return dir === undefined ? undefined : loadBundle(dir);
}

import { relative, sep } from "node:path";
import { importDevTool } from "@fwkit/koa-host/operations";
import { CLI_DIR } from "./package-dir.js";

/**
 * Folders whose changes never restart the development server, wherever they sit under the app:
 * dependencies, version control, build output (asset bundles are written to `build/` at each
 * start: watching it restarted the server twice per start), the SQLite data folder, the
 * framework's own state of the app (`.fwkit`: the mails the development catcher keeps) and folders
 * the running app re-reads itself (templates, static files).
 */
export const IGNORED_FOLDERS: readonly string[] = [
  "node_modules",
  ".git",
  "build",
  "dist",
  "coverage",
  "data",
  ".fwkit",
  "static",
  "templates",
];

/** File types that restart the development server when they change (sources and JSON config). */
export const SOURCE_EXTENSIONS: readonly string[] = [".ts", ".mts", ".cts", ".js", ".mjs", ".cjs", ".json"];

const IGNORED = new Set(IGNORED_FOLDERS);

/**
 * The one watcher rule: whether a path relative to the app root is outside the ignored folders.
 * Folders are tested with this too, so the watcher never descends into an ignored one.
 */
export function isWatchedPath(relativePath: string): boolean {
  const parts = relativePath.split(/[/\\]/).filter((part) => part !== "" && part !== ".");
  return !parts.some((part) => IGNORED.has(part));
}

/** Whether a change to this file (relative to the app root) restarts the development server. */
export function isRestartingFile(relativePath: string): boolean {
  return (
    isWatchedPath(relativePath) &&
    SOURCE_EXTENSIONS.some((extension) => relativePath.endsWith(extension)) &&
    !/\.d\.[mc]?ts$/.test(relativePath)
  );
}

/** A running source watcher. */
export interface SourceWatcher {
  /** Resolves once the initial scan is done: changes from then on are reported. */
  readonly ready: Promise<void>;
  /** Stops watching. */
  close(): Promise<void>;
}

/**
 * Calls `onChange(relativePath)` whenever a source file under `root` is added, changed or removed.
 * Built on chokidar, which watches files by path rather than by inode: a file an editor saves
 * atomically (writes a temporary file, renames it over the original, as `sed -i` and many editors
 * do) keeps being watched, where node's recursive `fs.watch` lost it after the first such save.
 */
export async function watchSources(root: string, onChange: (relativePath: string) => void): Promise<SourceWatcher> {
  // chokidar is a development dependency of the app (the watcher only runs under the dev server).
  const { watch } = await importDevTool<typeof import("chokidar")>(
    "chokidar",
    "development server's file watcher",
    root,
    CLI_DIR,
  );
  const watcher = watch(root, {
    ignoreInitial: true,
    ignored: (path) => {
      const rel = relative(root, path);
      return rel !== "" && !rel.startsWith(`..${sep}`) && !isWatchedPath(rel);
    },
    // The rename of an atomic save arrives as unlink + add: chokidar folds them into one change.
    atomic: true,
  });
  const report = (path: string) => {
    const rel = relative(root, path);
    if (isRestartingFile(rel)) onChange(rel);
  };
  watcher.on("add", report).on("change", report).on("unlink", report);
  const ready = new Promise<void>((resolve, reject) => {
    watcher.once("ready", () => resolve());
    watcher.once("error", (error) => reject(error instanceof Error ? error : new Error(String(error))));
  });
  return { ready, close: () => watcher.close() };
}

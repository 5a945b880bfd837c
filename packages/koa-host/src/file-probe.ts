import { existsSync, readdirSync, type Dirent } from "node:fs";
import { join } from "node:path";

/** Tells whether `relative` (a `/`-separated path) exists under `root`, as `existsSync(join(root, relative))`. */
export type FileProbe = (root: string, relative: string) => boolean;

/** One folder read once: its entries by name, and what a missing name means (see `missing`). */
interface Listing {
  readonly entries: ReadonlyMap<string, Dirent>;
  /** Its entry names folded (case and Unicode form), made on the first miss. */
  folded: ReadonlySet<string> | undefined;
  /** Per missing name: true when an entry matches it folded, so only `existsSync` can tell. */
  readonly misses: Map<string, boolean>;
}

/** A folder as the probe knows it: its listing; `null` when nothing can exist under it; "unknown" when only `existsSync` can tell. */
type Folder = Listing | null | "unknown";

const fold = (name: string): string => name.normalize("NFC").toLowerCase();

// A folder path the probe walks itself: `/`-separated names, none empty, `.`, `..` or holding a `\`.
const UNUSUAL = /^\/|\/$|\/\/|\\|(?:^|\/)\.\.?(?:\/|$)/;

/**
 * A file-existence check for start-up decisions taken once per route (a template found by
 * convention), answering from directory listings instead of one system call per file: each folder
 * on the way is read once. Listings are kept only until the current synchronous job ends (a
 * start-up pass over every route), so a file added afterwards is seen by the next call.
 *
 * The answer is always that of `existsSync(join(root, relative))`: whenever a listing cannot tell
 * for sure, the probe asks `existsSync` itself (a symbolic link at the end of the path, a folder it
 * may not list, a name that matches an entry only when case or Unicode form is ignored, as on a
 * case-insensitive file system, an unusual path, or Windows).
 */
export function createFileProbe(): FileProbe {
  // By `root`, then by the folder's path under it.
  let roots: Map<string, Map<string, Folder>> | undefined;

  const folderOf = (root: string, path: string): Folder => {
    if (!roots) {
      roots = new Map();
      // Forget everything once this synchronous job is over.
      queueMicrotask(() => {
        roots = undefined;
      });
    }
    let folders = roots.get(root);
    if (!folders) {
      folders = new Map();
      roots.set(root, folders);
    }
    let folder = folders.get(path);
    if (folder === undefined) {
      folder = readFolder(root, path, folderOf);
      folders.set(path, folder);
    }
    return folder;
  };

  return (root, relative) => {
    const slash = relative.lastIndexOf("/");
    const name = relative.slice(slash + 1);
    if (process.platform === "win32" || name === "" || name === "." || name === ".." || name.includes("\\")) {
      return existsSync(join(root, relative));
    }
    const folder = folderOf(root, slash === -1 ? "" : relative.slice(0, slash));
    if (folder === null) return false;
    if (folder === "unknown") return existsSync(join(root, relative));
    const entry = folder.entries.get(name);
    if (!entry) return missing(folder, name) ? existsSync(join(root, relative)) : false;
    return entry.isSymbolicLink() ? existsSync(join(root, relative)) : true;
  };
}

/** Reads the folder at `path` under `root`, going through its parent's listing first. */
function readFolder(root: string, path: string, folderOf: (root: string, path: string) => Folder): Folder {
  if (path === "") return readListing(root);
  if (UNUSUAL.test(path)) return "unknown";
  const slash = path.lastIndexOf("/");
  const parent = folderOf(root, slash === -1 ? "" : path.slice(0, slash));
  if (parent === null || parent === "unknown") return parent;
  const name = path.slice(slash + 1);
  const entry = parent.entries.get(name);
  if (!entry) return missing(parent, name) ? "unknown" : null;
  // A file (or anything but a folder or a link to one) has no children: its listing is null.
  return readListing(join(root, path));
}

/** True when a name absent from a listing may still exist (an entry matches it folded). */
function missing(listing: Listing, name: string): boolean {
  let known = listing.misses.get(name);
  if (known === undefined) {
    listing.folded ??= new Set([...listing.entries.keys()].map(fold));
    known = listing.folded.has(fold(name));
    listing.misses.set(name, known);
  }
  return known;
}

/** The entries of a folder; `null` when it is missing or not a folder; "unknown" when it cannot be read. */
function readListing(dir: string): Folder {
  let dirents: Dirent[];
  try {
    dirents = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? null : "unknown";
  }
  const entries = new Map<string, Dirent>();
  for (const dirent of dirents) entries.set(dirent.name, dirent);
  return { entries, folded: undefined, misses: new Map() };
}

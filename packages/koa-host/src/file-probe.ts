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

const fold = (name: string): string => name.normalize("NFC").toLowerCase();

// A path the probe walks itself: `/`-separated names, none empty, `.`, `..` or holding a `\`.
const UNUSUAL = /^\/|\/$|\/\/|\\|(?:^|\/)\.\.?(?:\/|$)|^$/;

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
  // By `root` and the folder's path under it.
  let listings: Map<string, Listing | null | "unknown"> | undefined;

  const listingOf = (root: string, key: string, under: string): Listing | null | "unknown" => {
    if (!listings) {
      listings = new Map();
      // Forget everything once this synchronous job is over.
      queueMicrotask(() => {
        listings = undefined;
      });
    }
    let listing = listings.get(key);
    if (listing === undefined) {
      listing = readListing(under === "" ? root : join(root, under));
      listings.set(key, listing);
    }
    return listing;
  };

  return (root, relative) => {
    if (process.platform === "win32" || UNUSUAL.test(relative)) return existsSync(join(root, relative));
    for (let start = 0; ; ) {
      const under = start === 0 ? "" : relative.slice(0, start - 1);
      const listing = listingOf(root, `${root}\0${under}`, under);
      // `null`: the folder is missing or no folder, so nothing exists under it.
      if (listing === null) return false;
      if (listing === "unknown") return existsSync(join(root, relative));
      const slash = relative.indexOf("/", start);
      const name = slash === -1 ? relative.slice(start) : relative.slice(start, slash);
      const entry = listing.entries.get(name);
      if (!entry) return missing(listing, name) ? existsSync(join(root, relative)) : false;
      if (slash === -1) return entry.isSymbolicLink() ? existsSync(join(root, relative)) : true;
      // A file (or anything but a folder or a link to one) has no children: its listing is null.
      start = slash + 1;
    }
  };
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
function readListing(dir: string): Listing | null | "unknown" {
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

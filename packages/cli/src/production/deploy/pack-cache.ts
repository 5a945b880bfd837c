// What the deploy command packed last time, so a run where nothing changed packs nothing and
// resolves no lock file again (each `npm pack` listing and each npm resolution costs seconds). A
// package's tarball is reused when the digest of its folder's content (every file but its
// dependencies, with its executable bit) and of its published manifest is the one recorded, and
// the tarball on disk is still the one written; the lock file when the image's package.json and
// every tarball are unchanged.
import { createHash, type Hash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The cache file, in deploy/docker/ (a few hundred bytes; the image's install never reads it). */
export const PACK_CACHE_FILE = ".pack-cache.json";

/** One packed package: the digest it was packed from, its tarball's name and the tarball's digest. */
export interface PackedEntry {
  readonly key: string;
  readonly file: string;
  readonly sha256: string;
}

/** The cache's content. */
export interface PackCache {
  readonly packages: Record<string, PackedEntry>;
  /** The digest the lock file was resolved from, and the lock file's own. */
  readonly lock?: { readonly key: string; readonly sha256: string };
}

// Never part of a package tarball, and large: skipped by the digest.
const SKIPPED = new Set(["node_modules", ".git", ".turbo", "coverage"]);

function addFolder(hash: Hash, root: string, relative: string): void {
  const entries = readdirSync(join(root, relative), { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  for (const entry of entries) {
    if (SKIPPED.has(entry.name)) continue;
    const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
    const full = join(root, path);
    if (entry.isDirectory()) addFolder(hash, root, path);
    else if (entry.isFile()) {
      hash.update(`${path}\0${statSync(full).mode & 0o111 ? "x" : "-"}\0`);
      hash.update(readFileSync(full));
      hash.update("\0");
    }
  }
}

/** The digest of a package folder's files and of `extra` (its published manifest). */
export function folderDigest(dir: string, extra: string): string {
  const hash = createHash("sha256").update(extra).update("\0");
  addFolder(hash, dir, "");
  return hash.digest("hex");
}

/** The sha256 of a file, or undefined when it does not exist. */
export function fileDigest(file: string): string | undefined {
  return existsSync(file) ? createHash("sha256").update(readFileSync(file)).digest("hex") : undefined;
}

/** The cache of `dockerDir`, empty when absent or unreadable. */
export function readPackCache(dockerDir: string): PackCache {
  try {
    const cache = JSON.parse(readFileSync(join(dockerDir, PACK_CACHE_FILE), "utf8")) as PackCache;
    return typeof cache.packages === "object" && cache.packages !== null ? cache : { packages: {} };
  } catch {
    return { packages: {} };
  }
}

/** Writes the cache of `dockerDir`. */
export function writePackCache(dockerDir: string, cache: PackCache): void {
  writeFileSync(join(dockerDir, PACK_CACHE_FILE), `${JSON.stringify(cache, null, 2)}\n`);
}

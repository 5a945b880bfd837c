import { createHash } from "node:crypto";
import { type Dirent, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { E_ASSET_BUNDLE_FAILED, E_ASSET_NOT_FOUND } from "../errors.js";

/** One served file. */
export interface AssetEntry {
  /** Its path under the URL prefix, as templates name it: `css/app.css`. */
  readonly path: string;
  /** Its path with the content hash before the extension: `css/app.3f2a9c01b7.css`. */
  readonly hashedPath: string;
  /** Absolute file on disk. */
  readonly file: string;
  /** First 10 hex digits of the SHA-256 of its content. */
  readonly hash: string;
  readonly size: number;
  readonly mtimeMs: number;
}

/** A folder whose files are served under the prefix. */
export interface AssetSource {
  /** Absolute folder. */
  readonly dir: string;
  /** How errors name it (`static`, `the bundle folder`). */
  readonly label: string;
}

/** What a request path under the prefix resolves to. */
export interface AssetMatch {
  readonly entry: AssetEntry;
  /** True for the hashed path (cached for a year), false for the plain one (cached briefly). */
  readonly hashed: boolean;
}

/**
 * The files of `static/` (and built bundles) with their content hashes, built at start-up, so a
 * template's `static("css/app.css")` gives `/static/css/app.<hash>.css`: a URL that changes when
 * the content does and can therefore be cached forever.
 */
export interface AssetManifest {
  /** URL prefix, e.g. `/static`. */
  readonly prefix: string;
  /** Entries by plain path. */
  entries(): ReadonlyMap<string, AssetEntry>;
  /** The hashed URL of a file; `E_ASSET_NOT_FOUND` when it is not in the manifest. */
  assetUrl(path: string): string;
  /** Resolves a decoded path under the prefix (`css/app.<hash>.css` or `css/app.css`). */
  lookup(path: string): AssetMatch | undefined;
  /** Plain path -> hashed URL, for tooling and logs. */
  toJSON(): Record<string, string>;
}

/** Options of {@link createManifest}. */
export interface ManifestOptions {
  readonly sources: readonly AssetSource[];
  /** URL prefix (default `/static`). */
  readonly prefix?: string;
  /** Re-hash a file that changed and rescan on a miss (development); otherwise frozen at start. */
  readonly watch?: boolean;
}

/** Inserts the hash before the last extension: `a/b.min.js` -> `a/b.min.<hash>.js`. */
export function hashedName(path: string, hash: string): string {
  const slash = path.lastIndexOf("/");
  const dot = path.lastIndexOf(".");
  return dot > slash + 1 ? `${path.slice(0, dot)}.${hash}${path.slice(dot)}` : `${path}.${hash}`;
}

function hashOf(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex").slice(0, 10);
}

/** Lists regular files under `dir`, skipping hidden names and symbolic links. */
function walk(dir: string, relative = ""): string[] {
  let names: Dirent[];
  try {
    names = readdirSync(join(dir, relative), { withFileTypes: true });
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return [];
    throw error;
  }
  const found: string[] = [];
  for (const entry of names) {
    if (entry.name.startsWith(".")) continue;
    const path = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...walk(dir, path));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}

function scan(sources: readonly AssetSource[]): Map<string, AssetEntry> {
  const entries = new Map<string, AssetEntry>();
  const owner = new Map<string, string>();
  for (const source of sources) {
    for (const path of walk(source.dir)) {
      const previous = owner.get(path);
      if (previous !== undefined) {
        throw new E_ASSET_BUNDLE_FAILED(path, `it is both in ${previous} and in ${source.label}; rename one`);
      }
      owner.set(path, source.label);
      const file = join(source.dir, path);
      const stats = statSync(file);
      const hash = hashOf(file);
      entries.set(path, {
        path,
        hashedPath: hashedName(path, hash),
        file,
        hash,
        size: stats.size,
        mtimeMs: stats.mtimeMs,
      });
    }
  }
  return entries;
}

function encodePath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

/** Builds the manifest by hashing every file of the sources (synchronously: it runs at start-up). */
export function createManifest(options: ManifestOptions): AssetManifest {
  const prefix = (options.prefix ?? "/static").replace(/\/+$/, "");
  let entries = scan(options.sources);
  let hashed = new Map([...entries.values()].map((entry) => [entry.hashedPath, entry]));
  const rescan = () => {
    entries = scan(options.sources);
    hashed = new Map([...entries.values()].map((entry) => [entry.hashedPath, entry]));
  };
  const stale = (entry: AssetEntry) => {
    try {
      const stats = statSync(entry.file);
      return stats.mtimeMs !== entry.mtimeMs || stats.size !== entry.size;
    } catch {
      return true;
    }
  };
  const current = (path: string): AssetEntry | undefined => {
    const entry = entries.get(path);
    if (options.watch && (!entry || stale(entry))) {
      rescan();
      return entries.get(path);
    }
    return entry;
  };

  return {
    prefix,
    entries: () => entries,
    assetUrl(path) {
      const plain = String(path).replace(/^\/+/, "");
      const entry = current(plain);
      if (!entry) throw new E_ASSET_NOT_FOUND(plain, options.sources[0]?.label ?? "static");
      return `${prefix}/${encodePath(entry.hashedPath)}`;
    },
    lookup(path) {
      const byHash = hashed.get(path);
      if (byHash && !(options.watch && stale(byHash))) return { entry: byHash, hashed: true };
      const entry = current(path);
      if (entry) return { entry, hashed: false };
      // After a rescan the hashed path may name the new content.
      const rescanned = options.watch ? hashed.get(path) : undefined;
      return rescanned ? { entry: rescanned, hashed: true } : undefined;
    },
    toJSON() {
      return Object.fromEntries(
        [...entries.values()].map((entry) => [entry.path, `${prefix}/${encodePath(entry.hashedPath)}`]),
      );
    },
  };
}

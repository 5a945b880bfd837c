/**
 * The server bundle's files in a build and the check that it may serve. The build writes
 * `server.mjs` (the framework, its pure-JavaScript dependencies and the app's files in one module)
 * and `server-bundle.json` (what it was made with). `start` serves from the bundle only when the
 * command line running is the version that made it and every package folder the bundle reads from
 * is still where it was; otherwise it serves the build's files, which are always complete.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_DIR } from "../../package-dir.js";

/** The bundle, in the build folder. */
export const SERVER_BUNDLE = "server.mjs";
/** What the bundle was made with, in the build folder. */
export const SERVER_BUNDLE_MANIFEST = "server-bundle.json";

/** The content of {@link SERVER_BUNDLE_MANIFEST}. */
export interface ServerBundleManifest {
  readonly format: 1;
  /** The version of this package that made the bundle (the one whose start code it holds). */
  readonly cli: string;
  /** Package folders the bundle names by absolute path: its external modules, and the files whose location it keeps. */
  readonly reads: readonly string[];
}

let ownVersion: string | undefined;

/** This package's version. */
export function cliVersion(): string {
  ownVersion ??= (JSON.parse(readFileSync(join(CLI_DIR, "package.json"), "utf8")) as { version: string }).version;
  return ownVersion;
}

/**
 * Whether the bundle in `dir` may serve: `{ file }` when it may, `{ reason }` when a bundle is there
 * but may not (the reason names what changed), undefined when the build has no bundle.
 */
export function usableBundle(dir: string): { file: string } | { reason: string } | undefined {
  const file = join(dir, SERVER_BUNDLE);
  let manifest: Partial<ServerBundleManifest>;
  try {
    manifest = JSON.parse(readFileSync(join(dir, SERVER_BUNDLE_MANIFEST), "utf8")) as Partial<ServerBundleManifest>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return { reason: `${join(dir, SERVER_BUNDLE_MANIFEST)} cannot be read (${(error as Error).message})` };
  }
  if (manifest.format !== 1 || typeof manifest.cli !== "string" || !Array.isArray(manifest.reads))
    return { reason: `${join(dir, SERVER_BUNDLE_MANIFEST)} is not a server bundle manifest` };
  if (manifest.cli !== cliVersion())
    return { reason: `it was made by @fwkit/cli ${manifest.cli}, and ${cliVersion()} is installed` };
  const gone = manifest.reads.find((folder) => typeof folder !== "string" || !existsSync(folder));
  if (gone !== undefined) return { reason: `it reads from ${String(gone)}, which is gone` };
  if (!existsSync(file)) return { reason: `${file} is missing` };
  return { file };
}

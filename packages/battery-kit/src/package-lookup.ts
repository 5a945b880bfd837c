/**
 * Node's package lookup, done by hand where Node's own cannot be used: from a folder that is not
 * the caller's (the app's, for its drivers and development tools), and for an ES import (a
 * CommonJS `require.resolve` picks a package's `require` build).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The package a specifier belongs to: `tsx/esm/api` -> `tsx`, `@scope/pkg/sub` -> `@scope/pkg`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** The subpath of a specifier inside its package: `flydrive/drivers/s3` -> `./drivers/s3`, `flydrive` -> `.`. */
export function subpathOf(specifier: string): string {
  const name = packageOf(specifier);
  return specifier === name ? "." : `./${specifier.slice(name.length + 1)}`;
}

/** Node's lookup of `node_modules/<name>` from `dir` upwards. */
export function packageDirFrom(dir: string, name: string): string | undefined {
  for (let current = dir; ; current = dirname(current)) {
    const candidate = join(current, "node_modules", ...name.split("/"));
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(current) === current) return undefined;
  }
}

/** The nearest folder from `dir` upwards with a package.json, and that manifest. */
export function ownPackage(dir: string): { dir: string; manifest: PackageManifest } | undefined {
  for (let current = dir; ; current = dirname(current)) {
    const file = join(current, "package.json");
    if (existsSync(file)) return { dir: current, manifest: readManifest(current) };
    if (dirname(current) === current) return undefined;
  }
}

type ExportTarget = string | null | { readonly [condition: string]: ExportTarget } | undefined;

/** The fields of a package.json this lookup reads. */
export interface PackageManifest {
  readonly name?: string;
  readonly version?: string;
  readonly main?: string;
  readonly exports?: ExportTarget | Record<string, ExportTarget>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly peerDependenciesMeta?: Readonly<Record<string, { optional?: boolean }>>;
}

/** The package.json of the package in `dir`. */
export function readManifest(dir: string): PackageManifest {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as PackageManifest;
}

/** The file an ES import of `subpath` (`.` or `./x`) picks from a package's `exports` (import, node, default). */
export function importTarget(manifest: PackageManifest, subpath: string): string | undefined {
  const pick = (target: ExportTarget): string | undefined => {
    if (typeof target === "string") return target;
    if (!target) return undefined;
    return pick(target["import"]) ?? pick(target["node"]) ?? pick(target["default"]);
  };
  const exports = manifest.exports;
  if (exports === undefined) return subpath === "." ? (manifest.main ?? "index.js") : subpath;
  const bySubpath =
    typeof exports === "object" && exports !== null && Object.keys(exports).some((key) => key.startsWith("."));
  if (!bySubpath) return subpath === "." ? pick(exports as ExportTarget) : undefined;
  return pick((exports as Record<string, ExportTarget>)[subpath]);
}

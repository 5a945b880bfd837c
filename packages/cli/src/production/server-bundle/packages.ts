/**
 * The package folders a bundle's modules come from, and their package.json files, each found and
 * read once per build: the location plugin asks a file's module format, the externals plugin
 * whether its package is native, for about a thousand modules.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { type PackageManifest, readManifest } from "@fwkit/battery-kit/host";

/** The fields of a package.json the bundle reads, besides those the driver lookup reads. */
export type BundledManifest = PackageManifest & {
  readonly type?: string;
  readonly gypfile?: boolean;
  readonly binary?: unknown;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
};

/** Package folders and manifests of one build, cached. */
export class PackageFolders {
  readonly #folders = new Map<string, string>();
  readonly #manifests = new Map<string, BundledManifest | undefined>();

  /** The folder of the package holding `file`: its nearest package.json, as Node finds it. */
  folderOf(file: string): string {
    const start = dirname(file);
    let dir = this.#folders.get(start);
    if (dir === undefined) {
      dir = start;
      while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
      this.#folders.set(start, dir);
    }
    return dir;
  }

  /** The package.json of the package in `dir`, or undefined when it has none that reads. */
  manifest(dir: string): BundledManifest | undefined {
    if (!this.#manifests.has(dir)) {
      let manifest: BundledManifest | undefined;
      try {
        manifest = readManifest(dir) as BundledManifest;
      } catch {
        manifest = undefined;
      }
      this.#manifests.set(dir, manifest);
    }
    return this.#manifests.get(dir);
  }
}

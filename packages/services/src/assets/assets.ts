import { resolve } from "node:path";
import { buildBundles, type BundleDeclarations } from "./bundle.js";
import { createManifest, type AssetManifest } from "./manifest.js";

/** The `assets` config key. */
export interface AssetsConfig {
  /** Folder of static files, relative to the app root (default `static`). */
  readonly dir?: string;
  /** URL prefix they are served under (default `/static`). */
  readonly prefix?: string;
  /** Bundles built at start: output name -> sources (`{ "app.js": ["src/a.ts", "src/b.ts"] }`). */
  readonly bundles?: BundleDeclarations;
  /** Where bundles are written, relative to the app root (default `build/assets`; emptied at each start). */
  readonly outDir?: string;
  /** `max-age` in seconds of plain (unhashed) URLs (default 60). */
  readonly maxAge?: number;
}

/** Options of {@link prepareAssets}. */
export interface PrepareAssetsOptions {
  /** The app root (absolute). */
  readonly root: string;
  readonly config?: AssetsConfig;
  /** Development: source maps, no minification, and files re-hashed when they change. */
  readonly development?: boolean;
}

/**
 * Builds the declared bundles, then the manifest of `static/` plus the bundles, once at
 * start-up. Bundles are served under the same prefix as static files (`/static/app.<hash>.js`).
 */
export async function prepareAssets(options: PrepareAssetsOptions): Promise<AssetManifest> {
  const config = options.config ?? {};
  const staticDir = resolve(options.root, config.dir ?? "static");
  const outDir = resolve(options.root, config.outDir ?? "build/assets");
  const development = options.development ?? false;
  const built = await buildBundles({
    root: options.root,
    bundles: config.bundles ?? {},
    outDir,
    minify: !development,
    sourcemap: development,
    protect: [staticDir],
  });
  const sources = [{ dir: staticDir, label: config.dir ?? "static" }];
  if (built.length > 0) sources.push({ dir: outDir, label: "the bundles" });
  return createManifest({ sources, prefix: config.prefix ?? "/static", watch: development });
}

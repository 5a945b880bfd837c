import { existsSync, statSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import type { BuildFailure } from "esbuild";
import { requireDriver } from "../drivers.js";
import { E_ASSET_BUNDLE_FAILED, E_SERVICES_CONFIG_INVALID } from "../errors.js";

/** Bundles declared in config: output name (`app.js`, `css/site.css`) -> source files, relative to the app root. */
export type BundleDeclarations = Readonly<Record<string, readonly string[]>>;

/** Options of {@link buildBundles}. */
export interface BundleOptions {
  /** The app root (absolute): sources are resolved against it and must stay inside it. */
  readonly root: string;
  readonly bundles: BundleDeclarations;
  /** Output folder (absolute), inside the root; emptied first. */
  readonly outDir: string;
  /** Minify (production). */
  readonly minify?: boolean;
  /** Write linked source maps (development). */
  readonly sourcemap?: boolean;
  /** Folders the output folder must not be or contain (the static folder). */
  readonly protect?: readonly string[];
}

const NAME = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*\.(js|css)$/;

function inside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

/** Checks the output folder is a folder of its own inside the app, so emptying it is safe. */
function checkOutDir(options: BundleOptions): void {
  const { root, outDir } = options;
  if (!inside(root, outDir)) {
    throw new E_SERVICES_CONFIG_INVALID("assets.outDir", "a folder inside the app root (it is emptied at each build)");
  }
  for (const protectedDir of options.protect ?? []) {
    if (resolve(protectedDir) === resolve(outDir) || inside(outDir, protectedDir) || inside(protectedDir, outDir)) {
      throw new E_SERVICES_CONFIG_INVALID(
        "assets.outDir",
        `a folder apart from ${protectedDir} (it is emptied at each build)`,
      );
    }
  }
}

function describeFailure(error: unknown): string {
  const failure = error as Partial<BuildFailure>;
  const first = failure.errors?.[0];
  if (!first) return (error as Error).message;
  const where = first.location ? ` (${first.location.file}:${first.location.line}:${first.location.column})` : "";
  return `${first.text}${where}`;
}

/**
 * Builds each declared bundle with esbuild into `outDir`: a `.js` bundle imports its sources in
 * order (TypeScript allowed) as one browser script (IIFE, ES2020); a `.css` bundle inlines its
 * sources and their `@import`s. Runs at start-up; a missing source or a syntax error stops the
 * start with `E_ASSET_BUNDLE_FAILED` naming the bundle and the file.
 */
export async function buildBundles(options: BundleOptions): Promise<string[]> {
  const names = Object.keys(options.bundles);
  if (names.length === 0) return [];
  checkOutDir(options);
  // esbuild is loaded only by apps that declare bundles, when they are built.
  const { build } = requireDriver<typeof import("esbuild")>("esbuild", "asset bundler");
  await rm(options.outDir, { recursive: true, force: true });
  await mkdir(options.outDir, { recursive: true });
  for (const name of names) {
    const kind = NAME.exec(name)?.[1] as "js" | "css" | undefined;
    if (!kind) {
      throw new E_ASSET_BUNDLE_FAILED(name, 'its name must be a relative path ending in ".js" or ".css"');
    }
    const sources = options.bundles[name];
    if (!Array.isArray(sources) || sources.length === 0 || !sources.every((s) => typeof s === "string")) {
      throw new E_ASSET_BUNDLE_FAILED(name, "declare it as a list of source files");
    }
    const specifiers = sources.map((source) => {
      const file = resolve(options.root, source);
      if (!inside(options.root, file))
        throw new E_ASSET_BUNDLE_FAILED(name, `the source "${source}" is outside the app`);
      if (!existsSync(file) || !statSync(file).isFile())
        throw new E_ASSET_BUNDLE_FAILED(name, `the source "${source}" does not exist`);
      return JSON.stringify(`./${relative(options.root, file).split(sep).join("/")}`);
    });
    const contents =
      kind === "js"
        ? specifiers.map((s) => `import ${s};`).join("\n")
        : specifiers.map((s) => `@import ${s};`).join("\n");
    try {
      await build({
        stdin: { contents, resolveDir: options.root, sourcefile: `bundle:${name}`, loader: kind },
        bundle: true,
        outfile: join(options.outDir, name),
        platform: "browser",
        format: kind === "js" ? "iife" : undefined,
        target: "es2020",
        minify: options.minify ?? false,
        sourcemap: options.sourcemap ? "linked" : false,
        logLevel: "silent",
        write: true,
      });
    } catch (error) {
      throw new E_ASSET_BUNDLE_FAILED(name, describeFailure(error));
    }
  }
  return names;
}

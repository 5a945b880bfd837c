/**
 * The build's side of the server bundle: `server.mjs`, one ES module holding the start code, the
 * framework, its pure-JavaScript dependencies and the app's own files, so `start` loads one file
 * instead of about a thousand. The app's files are registered with the host by their paths in the
 * build (discovery still lists views and jobs from the folders) and imported from the bundle.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";
type Esbuild = typeof import("esbuild");
import { COMPUTED_IMPORT_WARNINGS, computedImportInApp } from "./computed-imports.js";
import { externalModules } from "./externals.js";
import { keepLocations } from "./locations.js";
import { PackageFolders } from "./packages.js";
import { cliVersion, SERVER_BUNDLE, SERVER_BUNDLE_MANIFEST, type ServerBundleManifest } from "./manifest.js";

// Folders of a build that `start` never imports from: migrations and seeds run from their own
// commands, scripts from `run`, and the rest holds no modules. Of the files beside them, `start`
// imports the app's entry only (what that entry imports is bundled with it).
const NOT_SERVED = new Set(["migrations", "seeds", "run", "static", "templates", "data", "node_modules"]);
const ENTRY = /^app\.m?js$/;
const MODULE_FILE = /\.[cm]?js$/;

/** The app's module files in a build, relative to it, `/`-separated. */
export function servedModules(dir: string, under = ""): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(dir, under), { withFileTypes: true })) {
    const path = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!(under === "" && NOT_SERVED.has(entry.name)) && !entry.name.startsWith("."))
        files.push(...servedModules(dir, path));
    } else if (under === "" ? ENTRY.test(entry.name) : MODULE_FILE.test(entry.name)) files.push(path);
  }
  return files.sort();
}

/** The entry of the bundle: registers the app's files, then exports the start code and the cluster worker's. */
function entrySource(dir: string, files: readonly string[]): string {
  const loaders = files.map((file) => `  ${JSON.stringify(file)}: () => import(${JSON.stringify(join(dir, file))}),`);
  return [
    `import { registerBundledModules } from "@fwkit/battery-kit/host";`,
    `import { runStart } from "../start-command.js";`,
    `registerBundledModules(import.meta.dirname, {`,
    ...loaders,
    `});`,
    `export const start = runStart;`,
    `export const worker = () => import("../worker-main.js");`,
    "",
  ].join("\n");
}

/** What {@link bundleServer} did: the modules it bundled, or why there is no bundle. */
export type BundleOutcome = { readonly modules: number } | { readonly skipped: string };

/**
 * Writes `server.mjs`, its source map and its manifest into the build folder `dir`, before the
 * build replaces the served one (the bundle names the app's files relative to itself). A bundle
 * that cannot be made is no bundle, never a failed build: `start` then serves the build's files,
 * as it always can.
 */
export async function bundleServer(esbuild: Esbuild, dir: string): Promise<BundleOutcome> {
  const reads = new Set<string>();
  const packages = new PackageFolders();
  const devDependencies = new Set(Object.keys(packages.manifest(dir)?.devDependencies ?? {}));
  const output = join(dir, SERVER_BUNDLE);
  try {
    const result = await esbuild.build({
      stdin: {
        contents: entrySource(dir, servedModules(dir)),
        resolveDir: fileURLToPath(new URL(".", import.meta.url)),
        sourcefile: "server-bundle-entry.js",
        loader: "js",
      },
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node22",
      outfile: output,
      // Class names are route prefixes: a class renamed to avoid a clash in the bundle keeps its name.
      keepNames: true,
      // "sideEffects": false in a package.json is a hint for browsers' tree shaking; a server
      // module imported for its effect must still run.
      ignoreAnnotations: true,
      sourcemap: "linked",
      sourcesContent: false,
      metafile: true,
      logLevel: "silent",
      logOverride: COMPUTED_IMPORT_WARNINGS,
      absWorkingDir: dir,
      banner: {
        js: `import { createRequire as __fwkitCreateRequire } from "node:module";\nconst require = __fwkitCreateRequire(import.meta.url);`,
      },
      plugins: [externalModules(devDependencies, reads, packages), keepLocations(dir, reads, packages)],
    });
    const computed = computedImportInApp(result.warnings, dir);
    if (computed)
      return skip(
        output,
        `${computed} imports a module by a name computed at run time, which would load beside a second copy of the framework`,
      );
    const copies = Object.keys(result.metafile.inputs).filter((input) =>
      /battery-kit[/\\](dist|src)[/\\]app-modules\.[jt]s$/.test(input),
    );
    if (copies.length !== 1)
      return skip(output, `the app and the command line use ${copies.length} copies of @fwkit/battery-kit`);
    // A bundle Node cannot parse must not replace the build's files at start.
    const check = spawnSync(process.execPath, ["--check", output], { encoding: "utf8" });
    if (check.status !== 0) return skip(output, `Node cannot parse it: ${check.stderr.trim().split("\n").at(-1)}`);
    const manifest: ServerBundleManifest = { format: 1, cli: cliVersion(), reads: [...reads].sort() };
    writeFileSync(join(dir, SERVER_BUNDLE_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    return { modules: Object.keys(result.metafile.inputs).length };
  } catch (error) {
    const failure = error as { errors?: { text: string; location?: { file: string; line: number } | null }[] };
    const first = failure.errors?.[0];
    const reason = first
      ? `${first.location ? `${first.location.file.split(sep).join("/")}:${first.location.line}: ` : ""}${first.text}`
      : (error as Error).message;
    return skip(output, reason);
  }
}

function skip(output: string, reason: string): BundleOutcome {
  rmSync(output, { force: true });
  rmSync(`${output}.map`, { force: true });
  return { skipped: reason };
}

/** The build's line about its server bundle. */
export function bundleLine(bundle: BundleOutcome, outDir: string): string {
  return "modules" in bundle
    ? `Bundled the server into ${join(outDir, SERVER_BUNDLE)} (${bundle.modules} modules): start loads it instead of the files`
    : `warning: no server bundle (${bundle.skipped}); start serves the build's files, a slower start`;
}

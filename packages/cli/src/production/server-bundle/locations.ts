/**
 * What the bundle keeps of each module's own location. Bundled, every module would otherwise see
 * the bundle's: `import.meta.url`, `import.meta.dirname` and `import.meta.filename`, and a CommonJS
 * module's `__dirname`, `__filename` and `require.resolve`, are what packages read their own files
 * (templates, package.json, worker scripts) and resolve their own dependencies with.
 */
import { readFileSync } from "node:fs";
import { dirname, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { Plugin } from "esbuild";
import type { PackageFolders } from "./packages.js";

const IMPORT_META = /\bimport\.meta\.(url|dirname|filename)\b/g;
const CJS_LOCATION = /\b(__dirname|__filename)\b/;
const DECLARES_LOCATION = /\b(?:var|let|const|function)\s+(?:__dirname|__filename)\b/;
const REQUIRE_RESOLVE = /\brequire\.resolve\(/g;

/** Whether `file` is CommonJS for Node: `.cjs`, or `.js` under a package.json that is not `"type": "module"`. */
function isCommonJs(file: string, packages: PackageFolders): boolean {
  if (file.endsWith(".cjs") || file.endsWith(".cts")) return true;
  if (!file.endsWith(".js")) return false;
  return packages.manifest(packages.folderOf(file))?.type !== "module";
}

/**
 * The esbuild plugin that keeps each module's location. A file of the app's build (under
 * `appDir`, where the bundle is written) gets it relative to the bundle, so the build may move
 * as a whole (the release folders); a package file gets its absolute path, and its package folder
 * goes in `reads`, which `start` checks before serving from the bundle.
 */
export function keepLocations(appDir: string, reads: Set<string>, packages: PackageFolders): Plugin {
  return {
    name: "fwkit-keep-locations",
    setup(build) {
      // TypeScript too: a command line run from its sources (its tests) bundles them.
      build.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
        const file = args.path;
        const source = readFileSync(file, "utf8");
        const inApp = !relative(appDir, file).startsWith("..");
        const commonJs = isCommonJs(file, packages);
        const usesMeta = source.includes("import.meta");
        const usesCjsLocation = commonJs && CJS_LOCATION.test(source) && !DECLARES_LOCATION.test(source);
        const usesResolve = commonJs && source.includes("require.resolve(");
        if (!usesMeta && !usesCjsLocation && !usesResolve) return undefined;
        const fromBundle = relative(appDir, file).split(sep).join("/");
        const location = {
          url: inApp
            ? `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`
            : JSON.stringify(pathToFileURL(file).href),
          filename: inApp ? `(import.meta.dirname + ${JSON.stringify(`/${fromBundle}`)})` : JSON.stringify(file),
          dirname: inApp
            ? `(import.meta.dirname + ${JSON.stringify(`/${dirname(fromBundle)}`.replace(/\/\.$/, ""))})`
            : JSON.stringify(dirname(file)),
        };
        if (!inApp) reads.add(packages.folderOf(file));
        let contents = source;
        if (usesMeta) contents = contents.replace(IMPORT_META, (_, key: keyof typeof location) => location[key]);
        if (usesResolve)
          contents = contents.replace(
            REQUIRE_RESOLVE,
            `__fwkitCreateRequire(${inApp ? location.url : JSON.stringify(file)}).resolve(`,
          );
        // A CommonJS module is wrapped in a function of its own by esbuild: the `var` stays local to it.
        if (usesCjsLocation)
          contents = `var __dirname = ${location.dirname}, __filename = ${location.filename};\n${contents}`;
        return { contents, loader: /\.[cm]?ts$/.test(file) ? "ts" : "js", resolveDir: dirname(file) };
      });
    },
  };
}

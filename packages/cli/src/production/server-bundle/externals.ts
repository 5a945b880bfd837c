/**
 * Which modules the server bundle leaves to Node, loaded from their files as without a bundle:
 * native addons and the packages that load them (database and hashing drivers), packages that
 * start worker threads or read their own folder at run time (pino, the queue), those that are
 * patched when loaded (OpenTelemetry's instrumentations), template engines, and the app's
 * development dependencies, which a production install does not have.
 */
import type { OnResolveArgs, Plugin } from "esbuild";
import type { BundledManifest, PackageFolders } from "./packages.js";

// Marks esbuild's own resolution of a path, asked from inside this plugin.
const RESOLVING = "fwkit-resolving";

/** Packages always left out of the bundle (a `@scope/` entry covers the scope). */
export const EXTERNAL_PACKAGES: readonly string[] = [
  "@opentelemetry/",
  "argon2",
  "bcrypt",
  "better-sqlite3",
  "bullmq",
  "ioredis",
  "mariadb",
  "mysql",
  "mysql2",
  "nunjucks",
  "oracledb",
  "pg",
  "pg-native",
  "pg-query-stream",
  "pino",
  "pino-pretty",
  "pug",
  "sqlite3",
  "tedious",
  "thread-stream",
];

/** The package name of a bare specifier (`@scope/name/sub` → `@scope/name`). */
export function packageName(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

function listedExternal(name: string): boolean {
  return EXTERNAL_PACKAGES.some((entry) => (entry.endsWith("/") ? name.startsWith(entry) : name === entry));
}

const PLATFORM_PACKAGE = /[-/](linux|darwin|win32|freebsd|android)-/;

/** Whether a package builds or loads a native addon (its manifest says so). */
function isNative(manifest: BundledManifest | undefined): boolean {
  if (!manifest) return false;
  const dependencies = { ...manifest.dependencies, ...manifest.optionalDependencies };
  return (
    manifest.gypfile === true ||
    manifest.binary !== undefined ||
    ["bindings", "node-gyp-build", "prebuild-install", "node-addon-api"].some((name) => name in dependencies) ||
    // A binary per platform, as optional packages (sharp's @img/sharp-linux-x64, @node-rs/*).
    Object.keys(manifest.optionalDependencies ?? {}).some((name) => PLATFORM_PACKAGE.test(name))
  );
}

/**
 * The esbuild plugin choosing external modules. A kept-out package is named by the absolute path
 * it resolves to from its importer (where Node would find it), and its folder goes in `reads`. The
 * app's development dependencies stay bare (a production install lacks them: importing one fails
 * as it would without a bundle), and so does anything that does not resolve at build time.
 */
export function externalModules(
  devDependencies: ReadonlySet<string>,
  reads: Set<string>,
  packages: PackageFolders,
): Plugin {
  return {
    name: "fwkit-externals",
    setup(build) {
      // esbuild's own resolution, as it would resolve `args` without this plugin.
      const resolve = (args: OnResolveArgs) =>
        build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: RESOLVING,
        });
      build.onResolve({ filter: /\.node$/ }, async (args) => {
        if (args.pluginData === RESOLVING) return undefined;
        const found = await resolve(args);
        if (found.errors.length > 0) return { path: args.path, external: true };
        reads.add(packages.folderOf(found.path));
        return { path: found.path, external: true };
      });
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === RESOLVING || args.path.startsWith("node:")) return undefined;
        const name = packageName(args.path);
        if (devDependencies.has(name)) return { path: args.path, external: true };
        const found = await resolve(args);
        if (found.errors.length > 0 || found.external) return { path: args.path, external: true };
        const dir = packages.folderOf(found.path);
        if (!listedExternal(name) && !isNative(packages.manifest(dir))) return found;
        reads.add(dir);
        return { path: found.path, external: true };
      });
    },
  };
}

import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { findAppEntry } from "@fwkit/koa-host/operations";
import { importDevTool } from "@fwkit/koa-host/operations";
import { CLI_DIR } from "../package-dir.js";
import { markAppFolder } from "@fwkit/koa-host/operations";
import { E_APP_NOT_FOUND } from "@fwkit/koa-host/operations";
import { E_BUILD_FAILED } from "../errors.js";
import { RELEASES_DIR } from "./releases.js";
import { bundleServer, type BundleOutcome } from "./server-bundle/build.js";

/** Options of {@link buildApp}. */
export interface BuildOptions {
  readonly root: string;
  /** The output folder under the root (default `build`). */
  readonly outDir?: string;
  /** Write the server bundle `start` loads instead of the build's files (default true). */
  readonly bundle?: boolean;
}

/** What a build wrote. */
export interface BuildResult {
  readonly outDir: string;
  /** TypeScript files compiled to JavaScript. */
  readonly compiled: number;
  /** Other files copied as they are (templates, static files, package.json...). */
  readonly copied: number;
  /** The server bundle: the modules it holds, or why there is none; undefined when not asked for. */
  readonly bundle?: BundleOutcome;
}

// Never part of a build: dependencies, local data, the build itself, version control, tests.
const SKIPPED_FOLDERS = new Set(["node_modules", ".git", "data", "dist", "coverage", "deploy", "test", "tests"]);
const SKIPPED_FILES = /(\.test\.[cm]?[tj]s|\.d\.[cm]?ts|^tsconfig(\..+)?\.json|^\.env(\..+)?)$/;
// Local state of the machine the build runs on, never the app's: the console's and other REPLs'
// histories (they hold what was typed, secrets included), editor swap files, OS and tool caches.
const LOCAL_STATE = /^(\..*_history|\.DS_Store|Thumbs\.db|\.eslintcache|.*\.tsbuildinfo|\..*\.sw[a-p]|.*~)$/;
const TYPESCRIPT = /\.(ts|mts|cts)$/;

function* walk(dir: string, root: string, outDir: string): Generator<string> {
  // Earlier builds and releases are never part of a build (`current` is a link: not walked).
  const builds = [outDir, join(root, "build"), join(root, RELEASES_DIR)];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (
        SKIPPED_FOLDERS.has(entry.name) ||
        builds.some((build) => full === build || full.startsWith(`${build}.`)) ||
        entry.name.startsWith(".")
      )
        continue;
      yield* walk(full, root, outDir);
    } else if (entry.isFile() && !SKIPPED_FILES.test(entry.name) && !LOCAL_STATE.test(entry.name)) {
      yield relative(root, full);
    }
  }
}

/**
 * `gen:build` / `:build`: a self-contained copy of the app in `build/` that production runs with
 * plain Node: every TypeScript file (app, views, lib, migrations, run/scripts) compiled to
 * JavaScript by esbuild (standard decorators lowered for Node 20, source maps inline), every other
 * file (templates, static files, package.json, lock file) copied. The folder is replaced as a whole,
 * so no file of an older build survives. esbuild does not check types: run `tsc --noEmit` in CI.
 * Then, unless `bundle` is false, the server bundle `start` loads instead of those files
 * (`server.mjs`; one that cannot be made leaves the build served from its files, with the reason).
 */
export async function buildApp(options: BuildOptions): Promise<BuildResult> {
  const root = options.root;
  if (!findAppEntry(root))
    throw new E_APP_NOT_FOUND(root, "there is no app.ts; run the init command of your framework first, or pass --root");
  const outDir = join(root, options.outDir ?? "build");
  // Loaded here only: serving an app never loads the compiler. esbuild is a development
  // dependency of the app (found there, or beside koa-host), so a production install has none.
  const esbuild = await importDevTool<typeof import("esbuild")>(
    "esbuild",
    "build command (TypeScript to JavaScript)",
    root,
    CLI_DIR,
  );
  const staging = `${outDir}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  let compiled = 0;
  let copied = 0;
  let bundle: BundleOutcome | undefined;
  try {
    for (const file of walk(root, root, outDir)) {
      const source = join(root, file);
      if (TYPESCRIPT.test(file)) {
        const target = join(
          staging,
          file
            .replace(/\.ts$/, ".js")
            .replace(/\.mts$/, ".mjs")
            .replace(/\.cts$/, ".cjs"),
        );
        let code: string;
        try {
          ({ code } = await esbuild.transform(readFileSync(source, "utf8"), {
            loader: "ts",
            format: file.endsWith(".cts") ? "cjs" : "esm",
            target: "node22",
            sourcemap: "inline",
            sourcefile: file.split(sep).join("/"),
            // The map's sources are found from the compiled file: the app's TypeScript files.
            sourceRoot: `${relative(dirname(target), root).split(sep).join("/")}/`,
            tsconfigRaw: {
              compilerOptions: {
                experimentalDecorators: false,
                useDefineForClassFields: true,
                verbatimModuleSyntax: false,
              },
            },
          }));
        } catch (error) {
          throw new E_BUILD_FAILED(`${file}: ${(error as Error).message}`);
        }
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, code);
        compiled++;
      } else {
        const target = join(staging, file);
        mkdirSync(dirname(target), { recursive: true });
        copyFileSync(source, target);
        copied++;
      }
    }
    // The app's data folder (SQLite, uploads in development) is not copied, but its place is kept.
    if (existsSync(join(root, "data"))) mkdirSync(join(staging, "data"), { recursive: true });
    // Relative paths in config (the SQLite file, storage) resolve against the app folder, not the build.
    markAppFolder(staging, outDir, root);
    if (options.bundle !== false) bundle = await bundleServer(esbuild, staging);
    // Renames last, back to back: `start` never sees a half-written build, and the old one is
    // deleted only once the new one is in place. Only a release (`releases/` and the `current`
    // link) switches with no instant between the two.
    const old = `${outDir}.old-${process.pid}`;
    rmSync(old, { recursive: true, force: true });
    if (existsSync(outDir)) renameSync(outDir, old);
    renameSync(staging, outDir);
    rmSync(old, { recursive: true, force: true });
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  return { outDir, compiled, copied, ...(bundle ? { bundle } : {}) };
}

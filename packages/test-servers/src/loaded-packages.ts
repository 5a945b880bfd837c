// Which packages a fresh Node process loads: for tests that a framework loads a driver only when an
// app configures it. CommonJS modules are read from require.cache at exit, ES modules from a
// resolve hook (it runs on the loader thread, so it appends to a file).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** The packages a process loaded. */
export interface LoadedPackages {
  /** Packages of the CommonJS modules in require.cache. */
  readonly commonjs: Set<string>;
  /** Packages of the ES module URLs resolved through the loader. */
  readonly esm: Set<string>;
}

/** The package a module path belongs to (`@scope/name` or `name`), or undefined outside node_modules. */
export function packageOf(path: string): string | undefined {
  return /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1];
}

/** What a process loaded: resolved ES module URLs, CommonJS module paths and Node built-ins (`cluster`). */
export interface LoadedModules {
  readonly esm: readonly string[];
  readonly commonjs: readonly string[];
  readonly builtins: readonly string[];
}

/**
 * Runs `script` (an ES module body) in a fresh Node process in `cwd`, with the sources loaded
 * through tsx as the tests load them, and reports every module and Node built-in it loaded. Fails
 * the test when the process fails.
 */
export function modulesLoadedBy(cwd: string, script: string): LoadedModules {
  const work = mkdtempSync(join(tmpdir(), "loaded-modules-"));
  try {
    const hook = join(work, "record-hook.mjs");
    writeFileSync(
      hook,
      `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.LOADED_ESM_LOG, result.url + "\\n");
  return result;
}
`,
    );
    const recorder = join(work, "recorder.mjs");
    writeFileSync(
      recorder,
      `import { createRequire, register } from "node:module";
import { writeFileSync } from "node:fs";
register(${JSON.stringify(pathToFileURL(hook).href)});
const require = createRequire(import.meta.url);
process.on("exit", () => {
  writeFileSync(process.env.LOADED_CJS_LOG, Object.keys(require.cache).join("\\n"));
  writeFileSync(process.env.LOADED_BUILTINS_LOG, process.moduleLoadList.filter((m) => m.startsWith("NativeModule ")).map((m) => m.slice(13)).join("\\n"));
});
`,
    );
    const logs = {
      LOADED_ESM_LOG: join(work, "esm.log"),
      LOADED_CJS_LOG: join(work, "cjs.log"),
      LOADED_BUILTINS_LOG: join(work, "builtins.log"),
    };
    writeFileSync(logs.LOADED_ESM_LOG, "");
    const result = spawnSync(
      process.execPath,
      [
        "--conditions=source",
        "--import",
        "tsx",
        "--import",
        pathToFileURL(recorder).href,
        "--input-type=module",
        "-e",
        script,
      ],
      { cwd, encoding: "utf8", env: { ...process.env, ...logs }, timeout: 120_000 },
    );
    assert.equal(result.status, 0, `the child process failed:\n${result.stderr}`);
    const lines = (file: string) => readFileSync(file, "utf8").split("\n").filter(Boolean);
    return {
      esm: lines(logs.LOADED_ESM_LOG),
      commonjs: lines(logs.LOADED_CJS_LOG),
      builtins: lines(logs.LOADED_BUILTINS_LOG),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** {@link modulesLoadedBy}, as the packages those modules belong to. */
export function packagesLoadedBy(cwd: string, script: string): LoadedPackages {
  const loaded = modulesLoadedBy(cwd, script);
  const packages = (modules: readonly string[]) =>
    new Set(modules.map(packageOf).filter((p): p is string => p !== undefined));
  return { commonjs: packages(loaded.commonjs), esm: packages(loaded.esm) };
}

/**
 * The loaded packages that match `patterns` (`name` or `@scope/*`), except `allowed`. tsx itself
 * loads esbuild, so for esbuild only an ES import counts.
 */
export function loadedAmong(
  loaded: LoadedPackages,
  patterns: readonly string[],
  allowed: readonly string[] = [],
): string[] {
  const matches = (pkg: string, pattern: string) =>
    pattern.endsWith("/*") ? pkg.startsWith(pattern.slice(0, -1)) : pkg === pattern;
  const found = new Set<string>();
  for (const pattern of patterns) {
    if (allowed.includes(pattern)) continue;
    for (const pkg of loaded.esm) if (matches(pkg, pattern)) found.add(pkg);
    if (pattern === "esbuild") continue;
    for (const pkg of loaded.commonjs) if (matches(pkg, pattern)) found.add(pkg);
  }
  return [...found].sort();
}

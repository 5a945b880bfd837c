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

/**
 * Runs `script` (an ES module body) in a fresh Node process in `cwd`, with the sources loaded
 * through tsx as the tests load them, and reports the packages it loaded. Fails the test when the
 * process fails.
 */
export function packagesLoadedBy(cwd: string, script: string): LoadedPackages {
  const work = mkdtempSync(join(tmpdir(), "loaded-packages-"));
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
process.on("exit", () => writeFileSync(process.env.LOADED_CJS_LOG, Object.keys(require.cache).join("\\n")));
`,
    );
    const cjsLog = join(work, "cjs.log");
    const esmLog = join(work, "esm.log");
    writeFileSync(esmLog, "");
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
      {
        cwd,
        encoding: "utf8",
        env: { ...process.env, LOADED_CJS_LOG: cjsLog, LOADED_ESM_LOG: esmLog },
        timeout: 120_000,
      },
    );
    assert.equal(result.status, 0, `the child process failed:\n${result.stderr}`);
    const packages = (lines: string) =>
      new Set(
        lines
          .split("\n")
          .map(packageOf)
          .filter((p): p is string => p !== undefined),
      );
    return { commonjs: packages(readFileSync(cjsLog, "utf8")), esm: packages(readFileSync(esmLog, "utf8")) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
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

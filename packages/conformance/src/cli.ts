/**
 * The `conformance` CLI: `conformance fw-a` imports `fw-a/testing`, takes its exported
 * `conformanceAdapter`, and runs the suite under node's test runner (the process exits non-zero
 * when a test fails). A folder path may be given instead of a package name.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { ConformanceAdapter } from "./adapter.js";
import { E_CONFORMANCE_FRAMEWORK_NOT_FOUND, E_CONFORMANCE_NO_ADAPTER } from "./errors.js";
import { runConformance } from "./run.js";

const USAGE = "usage: conformance <framework>   (a package name such as fw-a or fw-b, or the path of a package folder)";

/** Finds the folder of a framework package: a path, an installed package, or a workspace package. */
export function findFrameworkDir(framework: string, from: string): string {
  if (framework.startsWith(".") || isAbsolute(framework)) {
    const dir = resolve(from, framework);
    if (existsSync(join(dir, "package.json"))) return dir;
    throw new E_CONFORMANCE_FRAMEWORK_NOT_FOUND(framework, from);
  }
  try {
    return dirname(createRequire(join(from, "noop.js")).resolve(`${framework}/package.json`));
  } catch {
    // Not installed here: look for a package of that name in the enclosing workspace.
  }
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "pnpm-workspace.yaml"))) {
      for (const group of ["packages", "apps"]) {
        const candidate = join(dir, group, framework);
        if (existsSync(join(candidate, "package.json")) && readName(candidate) === framework) return candidate;
      }
      break;
    }
    if (dirname(dir) === dir) break;
  }
  throw new E_CONFORMANCE_FRAMEWORK_NOT_FOUND(framework, from);
}

function readName(dir: string): unknown {
  return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown }).name;
}

/** Whether this process resolves the `source` export condition (tests and dev run TypeScript). */
function sourceCondition(): boolean {
  const flags = [...process.execArgv, ...(process.env["NODE_OPTIONS"] ?? "").split(/\s+/)];
  return flags.some(
    (flag, i) =>
      flag === "--conditions=source" || ((flag === "-C" || flag === "--conditions") && flags[i + 1] === "source"),
  );
}

/** The file the package's `./testing` export points to under this process's conditions. */
export function testingEntry(dir: string, label: string): string {
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { exports?: Record<string, unknown> };
  const target = manifest.exports?.["./testing"];
  if (target === undefined) throw new E_CONFORMANCE_NO_ADAPTER(label, 'has no "./testing" export in its package.json');
  if (typeof target === "string") return join(dir, target);
  const conditions = target as Record<string, unknown>;
  for (const condition of [...(sourceCondition() ? ["source"] : []), "import", "default"]) {
    const file = conditions[condition];
    if (typeof file === "string") return join(dir, file);
  }
  throw new E_CONFORMANCE_NO_ADAPTER(label, 'has a "./testing" export with no "import" or "default" file');
}

/** Imports `<framework>/testing` and checks its `conformanceAdapter` has the adapter's shape. */
export async function loadAdapter(framework: string, from = process.cwd()): Promise<ConformanceAdapter> {
  const dir = findFrameworkDir(framework, from);
  const module = (await import(pathToFileURL(testingEntry(dir, framework)).href)) as { conformanceAdapter?: unknown };
  const adapter = module.conformanceAdapter as Partial<ConformanceAdapter> | undefined;
  if (typeof adapter !== "object" || adapter === null)
    throw new E_CONFORMANCE_NO_ADAPTER(framework, 'exports no "conformanceAdapter" from its "./testing" entry');
  const missing = [
    typeof adapter.name === "string" ? "" : "name",
    typeof adapter.trailingSlash === "boolean" ? "" : "trailingSlash",
    typeof adapter.Base === "function" ? "" : "Base",
    typeof adapter.decorators === "object" && adapter.decorators !== null ? "" : "decorators",
    typeof adapter.start === "function" ? "" : "start",
    typeof adapter.build === "function" ? "" : "build",
  ].filter(Boolean);
  if (missing.length > 0)
    throw new E_CONFORMANCE_NO_ADAPTER(framework, `has a "conformanceAdapter" without ${missing.join(", ")}`);
  return adapter as ConformanceAdapter;
}

/** Runs the CLI: loads the adapter, then declares the suite for node's test runner. */
export async function main(argv: readonly string[]): Promise<void> {
  const framework = argv[0];
  if (!framework || framework === "--help" || framework === "-h") {
    console.error(USAGE);
    process.exitCode = framework ? 0 : 2;
    return;
  }
  try {
    runConformance(await loadAdapter(framework));
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 1;
  }
}

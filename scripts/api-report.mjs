#!/usr/bin/env node
// `pnpm api:check` / `pnpm api:update`: the API report of every published package, one per entry
// point of its package.json `exports` (`.`, `./plugin`, `./testing`...), made by
// @microsoft/api-extractor from the built `dist/*.d.ts` and kept in `packages/<dir>/api/<entry>.api.md`.
// `check` fails when a report differs from the committed one and prints the diff; `update` rewrites
// the reports. Needs the packages built (`pnpm build`). The configuration is generated here, not
// written per package, so a new entry point or package gets its report with no extra file.
// Private packages (test-servers) are not published and have no report.
//
//   node scripts/api-report.mjs check|update [package-dir...]
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const packagesDir = join(root, "packages");

/** Every published package's entry points: `{ dir, name, entry, subpath, types }`. */
export function apiEntries(only = []) {
  const entries = [];
  for (const dir of readdirSync(packagesDir).sort()) {
    const manifestFile = join(packagesDir, dir, "package.json");
    if (!existsSync(manifestFile)) continue;
    if (only.length > 0 && !only.includes(dir)) continue;
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
    if (manifest.private) continue;
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      if (typeof target !== "object" || target === null || typeof target.types !== "string") continue;
      const entry = subpath === "." ? "index" : subpath.replace(/^\.\//, "").replaceAll("/", "-");
      entries.push({ dir, name: manifest.name, subpath, entry, types: join(packagesDir, dir, target.types) });
    }
  }
  return entries;
}

/** The api-extractor configuration of one entry point: a report only, quiet about style. */
function extractorConfig(item, tempFolder) {
  const packageFolder = join(packagesDir, item.dir);
  return {
    projectFolder: packageFolder,
    mainEntryPointFilePath: item.types,
    newlineKind: "lf",
    compiler: {
      // The built declarations are the input; sibling packages resolve to their built `types` too.
      overrideTsconfig: {
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2023", "ESNext.Decorators"],
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          skipLibCheck: true,
          types: ["node"],
        },
        files: [item.types],
      },
    },
    apiReport: {
      enabled: true,
      reportFileName: item.entry,
      reportFolder: join(packageFolder, "api"),
      reportTempFolder: tempFolder,
      includeForgottenExports: false,
    },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    messages: {
      compilerMessageReporting: { default: { logLevel: "warning" } },
      extractorMessageReporting: {
        default: { logLevel: "none", addToApiReportFile: false },
        // A type the entry uses but does not export: listed in the report, so it shows in review.
        "ae-forgotten-export": { logLevel: "none", addToApiReportFile: true },
      },
      tsdocMessageReporting: { default: { logLevel: "none", addToApiReportFile: false } },
    },
  };
}

/**
 * Runs api-extractor for the entries in this process, every run on one TypeScript program (one
 * compiler state for all entry points: building a program is most of the time). Returns the entries
 * whose report changed or could not be made.
 */
async function runEntries(items, mode, tempFolder) {
  const { CompilerState, Extractor, ExtractorConfig } = await import("@microsoft/api-extractor");
  const changed = [];
  const present = [];
  for (const item of items) {
    if (existsSync(item.types)) present.push(item);
    else {
      console.error(
        `${item.name} ${item.subpath}: ${relative(root, item.types)} is missing; run \`pnpm build\` first.`,
      );
      changed.push({ ...item, missing: true });
    }
  }
  const prepare = (item) =>
    ExtractorConfig.prepare({
      configObject: extractorConfig(item, join(tempFolder, item.dir)),
      configObjectFullPath: undefined,
      packageJsonFullPath: join(packagesDir, item.dir, "package.json"),
    });
  let compilerState;
  for (const item of present) {
    const config = prepare(item);
    compilerState ??= CompilerState.create(config, { additionalEntryPoints: present.map((other) => other.types) });
    mkdirSync(join(tempFolder, item.dir), { recursive: true });
    if (mode === "update") mkdirSync(join(packagesDir, item.dir, "api"), { recursive: true });
    const result = Extractor.invoke(config, {
      localBuild: mode === "update",
      compilerState,
      showVerboseMessages: false,
      messageCallback: (message) => {
        // api-extractor's own chatter (bundled TypeScript version, "report changed" notices) is not
        // ours to show; compiler errors in the built declarations are.
        if (message.category !== "Compiler" || message.logLevel !== "error") message.logLevel = "none";
      },
    });
    if (result.apiReportChanged || !result.succeeded) changed.push(item);
  }
  return changed;
}

/** `check` or `update` every published entry point (or those of the named package folders). */
async function main() {
  const [mode, ...only] = process.argv.slice(2);
  if (mode !== "check" && mode !== "update") {
    console.error("Usage: node scripts/api-report.mjs check|update [package-dir...]");
    process.exit(2);
  }
  const entries = apiEntries(only);
  const tempFolder = mkdtempSync(join(tmpdir(), "api-report-"));
  const changed = await runEntries(entries, mode, tempFolder);
  if (mode === "update") {
    removeStaleReports(entries, only);
    rmSync(tempFolder, { recursive: true, force: true });
    const count = changed.filter((item) => !item.missing).length;
    console.log(`API reports: ${entries.length} entry points, ${count} report(s) rewritten.`);
    process.exit(changed.some((item) => item.missing) ? 1 : 0);
  }
  for (const item of changed) {
    if (item.missing) continue;
    const committed = join(packagesDir, item.dir, "api", `${item.entry}.api.md`);
    const fresh = join(tempFolder, item.dir, `${item.entry}.api.md`);
    console.error(`\nAPI report of ${item.name} ${item.subpath} differs from ${relative(root, committed)}:`);
    const before = existsSync(committed) ? relative(root, committed) : "/dev/null";
    const diff = spawnSync("git", ["diff", "--no-index", "--no-color", before, fresh], { cwd: root, encoding: "utf8" });
    process.stderr.write(diff.stdout || diff.stderr || "(no report was made: see the errors above)\n");
  }
  rmSync(tempFolder, { recursive: true, force: true });
  if (changed.length > 0) {
    console.error(
      `\n${changed.length} API report(s) out of date. If the change is intended, run \`pnpm api:update\` and commit packages/*/api/.`,
    );
    process.exit(1);
  }
  console.log(`API reports: ${entries.length} entry points, all up to date.`);
}

/** A report left behind by an entry point that no longer exists is removed by `update`. */
function removeStaleReports(entries, only) {
  const dirs = new Set(entries.map((item) => item.dir));
  for (const dir of readdirSync(packagesDir)) {
    if (only.length > 0 && !only.includes(dir)) continue;
    const folder = join(packagesDir, dir, "api");
    if (!existsSync(folder)) continue;
    const wanted = new Set(entries.filter((item) => item.dir === dir).map((item) => `${item.entry}.api.md`));
    for (const file of readdirSync(folder)) {
      if (file.endsWith(".api.md") && (!dirs.has(dir) || !wanted.has(file))) unlinkSync(join(folder, file));
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();

import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** What a scaffold did: files written and files left alone because they existed. */
export interface ScaffoldResult {
  readonly written: readonly string[];
  readonly skipped: readonly string[];
}

/**
 * Writes files (relative path -> content; a path ending in `/` is a folder) under `dir`, never
 * overwriting an existing file.
 */
export function writeScaffold(dir: string, files: Readonly<Record<string, string>>): ScaffoldResult {
  const written: string[] = [];
  const skipped: string[] = [];
  for (const [path, content] of Object.entries(files)) {
    const target = join(dir, path);
    if (path.endsWith("/")) {
      if (existsSync(target)) continue;
      mkdirSync(target, { recursive: true });
      written.push(path);
      continue;
    }
    if (existsSync(target)) {
      skipped.push(path);
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
    written.push(path);
  }
  return { written, skipped };
}

/** Prints a scaffold result the way the CLIs do. */
export function describeScaffold(result: ScaffoldResult, print: (line: string) => void = console.log): void {
  for (const path of result.written) print(`  create  ${path}`);
  for (const path of result.skipped) print(`  skip    ${path} (exists)`);
}

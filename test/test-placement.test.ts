// Tests are placed one way in every package and app (CONTRIBUTING.md, "Layout and commands"): in
// test/, at the path of the file they test, never in src/, so src/ holds only what is built and
// shipped. A package's typecheck covers test/, its build compiles src/ alone and its published
// files leave test/ out.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Every folder of packages/* and apps/* that has a package.json. */
function workspaceDirs(): string[] {
  return ["packages", "apps"].flatMap((group) =>
    readdirSync(join(repoRoot, group))
      .map((entry) => join(repoRoot, group, entry))
      .filter((dir) => existsSync(join(dir, "package.json"))),
  );
}

/** The test files under `dir`, node_modules and build output left out. */
function testFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    if (entry === "node_modules" || entry === "dist" || entry.startsWith(".")) return [];
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) return testFiles(full);
    return /\.test\.[cm]?[jt]s$/.test(entry) ? [full] : [];
  });
}

const readJson = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;

describe("test placement", () => {
  test("no package or app keeps a test in src/", () => {
    const misplaced = workspaceDirs().flatMap((dir) =>
      testFiles(join(dir, "src")).map((file) => relative(repoRoot, file)),
    );
    assert.deepEqual(misplaced, [], "move these to test/, at the same path (src/a/b.test.ts -> test/a/b.test.ts)");
  });

  test("each package typechecks test/, builds src/ alone and does not publish test/", () => {
    const problems: string[] = [];
    for (const dir of workspaceDirs().filter((d) => existsSync(join(d, "test")))) {
      const name = relative(repoRoot, dir);
      const tsconfig = join(dir, "tsconfig.json");
      if (existsSync(tsconfig) && !((readJson(tsconfig)["include"] as string[] | undefined) ?? []).includes("test"))
        problems.push(`${name}/tsconfig.json does not include test`);
      const build = join(dir, "tsconfig.build.json");
      if (
        existsSync(build) &&
        ((readJson(build)["include"] as string[] | undefined) ?? []).some((entry) => entry.startsWith("test"))
      )
        problems.push(`${name}/tsconfig.build.json compiles test/`);
      const files = readJson(join(dir, "package.json"))["files"] as string[] | undefined;
      if (files?.some((entry) => entry === "test" || entry.startsWith("test/")))
        problems.push(`${name}/package.json publishes test/`);
    }
    assert.deepEqual(problems, []);
  });
});

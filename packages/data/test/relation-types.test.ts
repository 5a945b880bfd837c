// Relation types as the compiler sees them: test/types/relation-types.ts compiles as written, and
// with its `@ts-expect-error` directives taken out tsc reports an error on exactly those lines:
// a relation read before it is preloaded, a misspelt relation name, the wrong writes for a kind.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const DIRECTIVE = "// @ts-expect-error";

/** tsc's errors (`line: message`) for `source` placed in test/types, through the package's tsconfig. */
function compile(source: string): { line: number; message: string }[] {
  const dir = mkdtempSync(join(here, "types", ".check-"));
  try {
    writeFileSync(join(dir, "check.ts"), source.replaceAll('from "../', 'from "../../'));
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        extends: "../../../tsconfig.json",
        include: ["check.ts"],
        compilerOptions: { rootDir: "../../.." },
      }),
    );
    const run = spawnSync(process.execPath, [tsc, "-p", join(dir, "tsconfig.json"), "--noEmit", "--pretty", "false"], {
      encoding: "utf8",
    });
    return [...run.stdout.matchAll(/check\.ts\((\d+),\d+\): error (TS\d+: .*)/g)].map((m) => ({
      line: Number(m[1]),
      message: m[2]!,
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("relation types: each @ts-expect-error marks a real error, and nothing else is one", () => {
  const source = readFileSync(join(here, "types", "relation-types.ts"), "utf8");
  assert.deepEqual(compile(source), [], "the file compiles as written");
  const lines = source.split("\n");
  const expected = lines.flatMap((line, index) => (line.trim().startsWith(DIRECTIVE) ? [index + 1] : []));
  assert.ok(expected.length >= 10);
  // Each directive becomes an empty comment line, so the next line keeps its number.
  const stripped = lines.map((line) => (line.trim().startsWith(DIRECTIVE) ? "//" : line)).join("\n");
  const errors = compile(stripped);
  assert.deepEqual(
    [...new Set(errors.map((e) => e.line - 1))],
    expected,
    errors.map((e) => `${e.line}: ${e.message}`).join("\n"),
  );
  const misspelt = errors.find((e) => lines[e.line - 1]!.includes('"projet"'));
  assert.match(misspelt?.message ?? "", /"projet"/);
});

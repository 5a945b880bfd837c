// Every ```ts block of docs/*.md a user would paste compiles in a freshly scaffolded
// app of its framework. A block preceded by `<!-- fragment: why -->` (an excerpt that cannot stand
// alone, with the reason) is skipped and listed; everything else is written into the app as a module and type-checked
// with one tsc program per framework, against the frameworks' built types as a user gets them.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { initApp as initFwA } from "../packages/fw-a/src/cli/init.js";
import { initApp as initFwB } from "../packages/fw-b/src/cli/scaffold.js";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const docsDir = join(repoRoot, "docs");
const tsc = createRequire(join(repoRoot, "package.json")).resolve("typescript/bin/tsc");

type Framework = "fw-a" | "fw-b";

interface Block {
  readonly doc: string;
  /** 1-based line of the block's first code line in the doc. */
  readonly line: number;
  readonly code: string;
  /** Why the block is an excerpt (`<!-- fragment: why -->` before its fence), or undefined. */
  readonly fragment: string | undefined;
  /** Declarations the excerpt assumes (`<!-- assume: declare const post: Post; -->`), checked before it. */
  readonly assume: readonly string[];
  /** `<!-- in: view -->`: the block is the body of a view method (its imports are kept at the top). */
  readonly inView: boolean;
  /**
   * Why the block is checked alone in a fresh app (`<!-- own app: why -->`): an app-wide declaration
   * (its `UserRegistry`) that would clash with the other examples'.
   */
  readonly ownApp: string | undefined;
}

/**
 * The ```ts blocks of one doc. The HTML comments right before a fence (invisible in the rendered
 * doc) say how to read an excerpt: `<!-- fragment: why -->` skips it, `<!-- assume: ... -->` gives
 * the declarations it relies on, `<!-- in: view -->` checks it as the body of a view method.
 */
export function blocksOf(doc: string, text: string): Block[] {
  const lines = text.split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== "```ts") continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end]!.trim() !== "```") end++;
    const markers: string[] = [];
    for (let before = i - 1; before >= 0 && /^<!--.*-->$/.test(lines[before]!.trim()); before--)
      markers.unshift(lines[before]!.trim());
    const marker = (name: string) =>
      markers
        .map((m) => new RegExp(`^<!--\\s*${name}\\b:?\\s*(.*?)\\s*-->$`).exec(m)?.[1])
        .filter((m): m is string => m !== undefined);
    blocks.push({
      doc,
      line: start + 1,
      code: lines.slice(start, end).join("\n"),
      fragment: marker("fragment")[0],
      assume: marker("assume"),
      inView: marker("in").includes("view"),
      ownApp: marker("own app")[0],
    });
    i = end;
  }
  return blocks;
}

/** Packages of the kit under the frameworks that docs may show on their own (`import { ... } from "@fwkit/data"`). */
const KIT = ["@fwkit/data", "@fwkit/services", "@fwkit/security", "@fwkit/koa-host", "routing-kernel"] as const;

/**
 * The source file checked for a block, and the number of lines put before the block's first line.
 * Imports stay at the top; assumed declarations follow; an `in: view` block becomes a method body.
 */
function sourceOf(block: Block, framework: Framework | "kit"): { text: string; offset: number } {
  const lines = block.code.split("\n");
  // Declarations are visible in the whole module, so assumed ones may follow the block; `export {}`
  // makes every block a module, so blocks never share top-level names.
  if (!block.inView) return { text: [...lines, ...block.assume, "export {};"].join("\n"), offset: 0 };
  const base = framework === "fw-b" ? "FwB" : "FwA";
  const from = framework === "fw-b" ? "fw-b" : "fw-a";
  const imports = lines.filter((l) => /^import\b/.test(l));
  const head = [
    `import { ${base} as DocViewBase } from "${from}";`,
    ...imports,
    ...block.assume,
    "export class DocView extends DocViewBase {",
    "  async example() {",
  ];
  return {
    text: [...head, ...lines.map((l) => (/^import\b/.test(l) ? "" : l)), "  }", "}"].join("\n"),
    offset: head.length,
  };
}

/** The app a block is checked in: the framework it imports, the kit when it imports a kit package, else its doc's framework, else fw-a. */
function frameworkOf(block: Block): Framework | "kit" {
  if (new RegExp(`from\\s+["'](${KIT.join("|")})(/[^"']*)?["']`).test([block.code, ...block.assume].join("\n")))
    return "kit";
  if (/from\s+["']fw-b(\/[^"']*)?["']/.test(block.code)) return "fw-b";
  if (/from\s+["']fw-a(\/[^"']*)?["']/.test(block.code)) return "fw-a";
  if (block.doc.startsWith("fw-b")) return "fw-b";
  if (/^\/\/\s*fw-b\b/.test(block.code)) return "fw-b";
  return "fw-a";
}

/** Where the block goes in the app: beside the file its first-line comment names (`// views/notes.ts`), else in views/. */
function placeOf(block: Block, index: number): string {
  const named = /^\/\/\s*([\w./-]+\.ts)\b/.exec(block.code)?.[1];
  const folder = named && !named.startsWith("/") && !named.includes("..") ? dirname(named) : "views";
  return join(folder === "." ? "" : folder, `doc_${block.doc.replace(/\W/g, "_")}_${block.line}_${index}.ts`);
}

const blocks = readdirSync(docsDir)
  .filter((name) => name.endsWith(".md"))
  .sort()
  .flatMap((name) => blocksOf(name, readFileSync(join(docsDir, name), "utf8")));
const work = mkdtempSync(join(tmpdir(), "docs-compile-"));

describe("docs: code blocks compile in a scaffolded app", () => {
  after(() => rmSync(work, { recursive: true, force: true }));

  test("the docs have code blocks, and only a few are marked as fragments", () => {
    assert.ok(blocks.length >= 30, `found ${blocks.length} blocks`);
    const fragments = blocks.filter((b) => b.fragment !== undefined);
    console.log(`docs blocks: ${blocks.length}, fragments skipped: ${fragments.length}`);
    for (const b of fragments) console.log(`  skipped docs/${b.doc}:${b.line}: ${b.fragment}`);
    assert.deepEqual(
      fragments.filter((b) => b.fragment === "").map((b) => `${b.doc}:${b.line}`),
      [],
      "every fragment marker says why (<!-- fragment: why -->)",
    );
    assert.ok(
      fragments.length <= Math.ceil(blocks.length / 5),
      `too many fragments: ${fragments.length} of ${blocks.length}`,
    );
  });

  test("models are declared in lib/, never in a view module: there they are never bound (E_MODEL_UNBOUND)", () => {
    const misplaced = blocks
      .filter((block) => block.fragment === undefined && /\bdefineModel\s*[<(]/.test(block.code))
      .filter((block) => !placeOf(block, 0).startsWith("lib"))
      .map((block) => `docs/${block.doc}:${block.line}`);
    assert.deepEqual(misplaced, [], "start such a block with `// lib/models.ts` (or import the model from it)");
  });

  for (const framework of ["fw-a", "fw-b", "kit"] as const) {
    test(`every pasteable ${framework} block type-checks against a fresh ${framework === "kit" ? "fw-a app with the kit's packages installed" : `${framework} app`}`, () => {
      const app = join(work, framework);
      (framework === "fw-b" ? initFwB : initFwA)(app);
      // The kit's packages as a user who installs them (`npm install @fwkit/data`) has them.
      if (framework === "kit") {
        mkdirSync(join(app, "node_modules", "@fwkit"), { recursive: true });
        for (const name of KIT)
          symlinkSync(join(repoRoot, "packages", name.replace("@fwkit/", "")), join(app, "node_modules", name), "dir");
      }
      const placed = new Map<string, { block: Block; offset: number }>();
      // The docs' `// lib/models.ts` (docs/data.md: User and Post) joins the scaffold's models, as
      // for a reader who follows the docs; other blocks import from it. Checked in each app.
      const models = blocks.find((block) => /^\/\/\s*lib\/models\.ts\b/.test(block.code));
      if (models) {
        const code = framework === "fw-b" ? models.code.replace(/"fw-a"/g, '"fw-b"') : models.code;
        const scaffolded = readFileSync(join(app, "lib", "models.ts"), "utf8").replace(/^import .*$/gm, "");
        writeFileSync(join(app, "lib", "models.ts"), `${code}\n${scaffolded}`);
        placed.set(join("lib", "models.ts"), { block: models, offset: 0 });
      }
      blocks.forEach((block, index) => {
        if (block === models || block.fragment !== undefined || block.ownApp !== undefined) return;
        if (frameworkOf(block) !== framework) return;
        const file = placeOf(block, index);
        const source = sourceOf(block, framework);
        mkdirSync(join(app, dirname(file)), { recursive: true });
        writeFileSync(join(app, file), `${source.text}\n`);
        placed.set(file, { block, offset: source.offset });
      });
      assert.ok(placed.size > 0, `no ${framework} block found`);
      writeFileSync(
        join(app, "tsconfig.docs.json"),
        JSON.stringify({ extends: "./tsconfig.json", include: [...placed.keys()], compilerOptions: { noEmit: true } }),
      );
      const run = spawnSync(process.execPath, [tsc, "-p", "tsconfig.docs.json", "--pretty", "false"], {
        cwd: app,
        encoding: "utf8",
      });
      // Each error is reported at its doc line: `docs/fw-a.md:133 (block at line 130, views/doc_....ts): error TS...`.
      const errors = `${run.stdout}${run.stderr}`
        .split("\n")
        .filter((line) => line.trim() !== "" && !line.startsWith(" "))
        .map((line) => {
          const match = /^(.+?\.ts)\((\d+),(\d+)\): (.*)$/.exec(line);
          const found = match ? placed.get(relative(app, join(app, match[1]!))) : undefined;
          if (!found) return line;
          const at = Math.max(found.block.line, found.block.line + Number(match![2]) - 1 - found.offset);
          return `docs/${found.block.doc}:${at} (block at line ${found.block.line}, ${match![1]}): ${match![4]}`;
        });
      assert.deepEqual(errors, [], `${errors.length} type errors in ${framework} docs blocks:\n${errors.join("\n")}`);
    });
  }

  test("every block marked `own app` type-checks alone in a fresh app of its framework", () => {
    const own = blocks.filter((block) => block.ownApp !== undefined && block.fragment === undefined);
    assert.ok(own.length > 0, "the user declaration of docs/fw-b-contrib.md is checked here");
    own.forEach((block, index) => {
      const framework = frameworkOf(block);
      const app = join(work, `own-${index}`);
      (framework === "fw-b" ? initFwB : initFwA)(app);
      const file = placeOf(block, index);
      const source = sourceOf(block, framework);
      mkdirSync(join(app, dirname(file)), { recursive: true });
      writeFileSync(join(app, file), `${source.text}\n`);
      writeFileSync(
        join(app, "tsconfig.docs.json"),
        JSON.stringify({ extends: "./tsconfig.json", include: [file], compilerOptions: { noEmit: true } }),
      );
      const run = spawnSync(process.execPath, [tsc, "-p", "tsconfig.docs.json", "--pretty", "false"], {
        cwd: app,
        encoding: "utf8",
      });
      assert.equal(run.status, 0, `docs/${block.doc}:${block.line}:\n${run.stdout}${run.stderr}`);
    });
  });
});

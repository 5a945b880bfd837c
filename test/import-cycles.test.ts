// No import cycles: between the files of a package (type-only imports included, since a type
// cycle ties two modules together as much as a value one), and between the packages. Read from
// every source file of packages/*/src and apps/*/src (tests, fixtures and builds left out), parsed
// with TypeScript's pre-processor, relative specifiers resolved as NodeNext resolves them (`./x.js`
// is `./x.ts`, a folder its `index.ts`).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

interface Workspace {
  /** Package name -> its folder. */
  readonly packages: ReadonlyMap<string, string>;
  /** Source file -> the source files it imports (relative imports, and other packages' entry points by name). */
  readonly files: ReadonlyMap<string, readonly string[]>;
  /** Package name -> the workspace packages its sources import. */
  readonly packageImports: ReadonlyMap<string, ReadonlySet<string>>;
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (entry === "node_modules" || entry === "dist" || entry.startsWith(".")) continue;
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) {
      if (entry === "test" || entry === "tests" || entry === "__tests__" || entry === "fixtures") continue;
      out.push(...sourceFiles(full));
    } else if (/\.(ts|mts|tsx)$/.test(entry) && !entry.endsWith(".d.ts") && !/\.test\.[cm]?tsx?$/.test(entry))
      out.push(full);
  }
  return out;
}

/** The file a relative specifier names, as NodeNext resolves it from TypeScript sources. */
function resolveRelative(from: string, specifier: string): string | undefined {
  const base = join(dirname(from), specifier.replace(/\.(m?js|tsx?)$/, ""));
  return [`${base}.ts`, `${base}.mts`, `${base}.tsx`, join(base, "index.ts")].find((file) => existsSync(file));
}

function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

function readWorkspace(root: string): Workspace {
  const packages = new Map<string, string>();
  for (const group of ["packages", "apps"]) {
    const base = join(root, group);
    if (!existsSync(base)) continue;
    for (const entry of readdirSync(base)) {
      const manifest = join(base, entry, "package.json");
      if (existsSync(manifest))
        packages.set(String((JSON.parse(readFileSync(manifest, "utf8")) as { name: unknown }).name), join(base, entry));
    }
  }
  const files = new Map<string, string[]>();
  const packageImports = new Map<string, Set<string>>();
  for (const [name, dir] of packages) {
    const imported = new Set<string>();
    packageImports.set(name, imported);
    for (const file of sourceFiles(join(dir, "src"))) {
      const targets: string[] = [];
      for (const { fileName } of ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles) {
        if (fileName.startsWith(".")) {
          const target = resolveRelative(file, fileName);
          if (target) targets.push(target);
        } else if (!fileName.startsWith("node:")) {
          const other = packageOf(fileName);
          if (packages.has(other) && other !== name) imported.add(other);
        }
      }
      files.set(file, targets);
    }
  }
  return { packages, files, packageImports };
}

/** The strongly connected components with more than one member (or a self-import): Tarjan's algorithm. */
function cyclesOf<T>(graph: ReadonlyMap<T, Iterable<T>>): T[][] {
  let index = 0;
  const indices = new Map<T, number>();
  const lowlinks = new Map<T, number>();
  const stack: T[] = [];
  const onStack = new Set<T>();
  const found: T[][] = [];
  const visit = (node: T): void => {
    indices.set(node, index);
    lowlinks.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        lowlinks.set(node, Math.min(lowlinks.get(node)!, lowlinks.get(next)!));
      } else if (onStack.has(next)) lowlinks.set(node, Math.min(lowlinks.get(node)!, indices.get(next)!));
    }
    if (lowlinks.get(node) === indices.get(node)) {
      const component: T[] = [];
      let member: T;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfImport = [...(graph.get(node) ?? [])].includes(node);
      if (component.length > 1 || selfImport) found.push(component.reverse());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}

/** One readable line per cycle: the files (or packages) that import each other round. */
function cycleReport(root: string): string[] {
  const workspace = readWorkspace(root);
  const fileCycles = cyclesOf(workspace.files).map(
    (cycle) =>
      `files: ${cycle
        .map((file) => relative(root, file))
        .sort()
        .join(" <-> ")}`,
  );
  const packageCycles = cyclesOf(workspace.packageImports).map(
    (cycle) => `packages: ${[...cycle].sort().join(" <-> ")}`,
  );
  return [...fileCycles, ...packageCycles];
}

describe("import cycles", () => {
  test("no file imports itself round, type-only imports included; no package imports itself round", () => {
    const cycles = cycleReport(repoRoot);
    assert.deepEqual(
      cycles,
      [],
      `import cycles (move the shared types or functions into a module both import):\n${cycles.join("\n")}`,
    );
  });

  test("the checker finds a type-only file cycle and a package cycle", () => {
    const root = mkdtempSync(join(tmpdir(), "import-cycles-"));
    try {
      const write = (path: string, text: string) => {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), text);
      };
      write("packages/one/package.json", JSON.stringify({ name: "one" }));
      write("packages/one/src/a.ts", 'import type { B } from "./b.js";\nexport interface A { b?: B }\n');
      write("packages/one/src/b.ts", 'import type { A } from "./a.js";\nexport interface B { a?: A }\n');
      write("packages/one/src/c.ts", 'import { x } from "two";\nexport const c = x;\n');
      write("packages/one/src/a.test.ts", 'import "./c.js";\nimport "./a.test.js";\n');
      write("packages/two/package.json", JSON.stringify({ name: "two" }));
      write("packages/two/src/index.ts", 'import { c } from "one/c";\nexport const x = 1;\nexport const y = c;\n');
      const cycles = cycleReport(root);
      assert.deepEqual(cycles, ["files: packages/one/src/a.ts <-> packages/one/src/b.ts", "packages: one <-> two"]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

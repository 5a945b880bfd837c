// The public surface of every published package: the `.` entry point exports the user
// API only, so nothing it exports (directly or through a re-export) is marked `@internal`; what
// plugin authors and the sibling packages need is under `./plugin` (src/plugin-api.ts), which the
// `exports` map must then list with `types`, `source` and `import` like the other entries. Read from
// the sources with TypeScript's parser (re-exports followed through the package's own files), so no
// build is needed. That the API reports
// (packages/<dir>/api/*.api.md) are up to date is checked by `pnpm api:check`, a step of `npm test`
// after the build (it needs the built declarations).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

interface Published {
  readonly dir: string;
  readonly name: string;
  readonly exports: Record<string, unknown>;
}

function publishedPackages(): Published[] {
  const base = join(repoRoot, "packages");
  return readdirSync(base)
    .filter((dir) => existsSync(join(base, dir, "package.json")))
    .map((dir) => {
      const manifest = JSON.parse(readFileSync(join(base, dir, "package.json"), "utf8")) as Record<string, unknown>;
      const published: Published = {
        dir: join(base, dir),
        name: String(manifest["name"]),
        exports: (manifest["exports"] ?? {}) as Record<string, unknown>,
      };
      return manifest["private"] === true ? undefined : published;
    })
    .filter((pkg): pkg is Published => pkg !== undefined);
}

/** The TypeScript file a relative `./x.js` specifier names. */
function resolveRelative(from: string, specifier: string): string | undefined {
  const base = join(dirname(from), specifier.replace(/\.js$/, ""));
  return [`${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((file) => existsSync(file));
}

const sources = new Map<string, ts.SourceFile>();
function parse(file: string): ts.SourceFile {
  let source = sources.get(file);
  if (!source) {
    source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
    sources.set(file, source);
  }
  return source;
}

const isInternal = (node: ts.Node): boolean => ts.getJSDocTags(node).some((tag) => tag.tagName.text === "internal");

/**
 * Whether the name `name` exported by `file` is marked `@internal`, following re-exports through
 * relative imports (a package's own files); another package's exports are that package's concern.
 */
function exportIsInternal(file: string, name: string, seen = new Set<string>()): boolean | undefined {
  const key = `${file}#${name}`;
  if (seen.has(key)) return undefined;
  seen.add(key);
  const source = parse(file);
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const specifier =
        statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
          ? statement.moduleSpecifier.text
          : undefined;
      const target = specifier?.startsWith(".") ? resolveRelative(file, specifier) : undefined;
      if (!statement.exportClause) {
        if (target && exportedNames(target).includes(name))
          return isInternal(statement) || exportIsInternal(target, name, seen);
        continue;
      }
      if (!ts.isNamedExports(statement.exportClause)) continue;
      for (const element of statement.exportClause.elements) {
        if (element.name.text !== name) continue;
        const original = (element.propertyName ?? element.name).text;
        if (isInternal(element) || isInternal(statement)) return true;
        if (target) return exportIsInternal(target, original, seen);
        return specifier === undefined ? localIsInternal(source, original) : false;
      }
      continue;
    }
    if (declares(statement, name) && hasExport(statement)) return isInternal(statement);
  }
  return undefined;
}

function hasExport(statement: ts.Statement): boolean {
  return (
    ts.canHaveModifiers(statement) &&
    (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
  );
}

function declares(statement: ts.Statement, name: string): boolean {
  if (ts.isVariableStatement(statement))
    return statement.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === name);
  const named = statement as ts.Statement & { name?: ts.Node };
  return named.name !== undefined && ts.isIdentifier(named.name) && named.name.text === name;
}

function localIsInternal(source: ts.SourceFile, name: string): boolean {
  return source.statements.some((statement) => declares(statement, name) && isInternal(statement));
}

/** Every name a file exports (declarations, named and star re-exports of its own files). */
function exportedNames(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const names: string[] = [];
  for (const statement of parse(file).statements) {
    if (ts.isExportDeclaration(statement)) {
      if (statement.exportClause && ts.isNamedExports(statement.exportClause))
        names.push(...statement.exportClause.elements.map((e) => e.name.text));
      else if (!statement.exportClause && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
        const target = statement.moduleSpecifier.text.startsWith(".")
          ? resolveRelative(file, statement.moduleSpecifier.text)
          : undefined;
        if (target) names.push(...exportedNames(target, seen));
      }
    } else if (hasExport(statement)) {
      if (ts.isVariableStatement(statement)) {
        for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push(d.name.text);
      } else {
        const named = statement as ts.Statement & { name?: ts.Node };
        if (named.name && ts.isIdentifier(named.name)) names.push(named.name.text);
      }
    }
  }
  return names;
}

/** The names exported by each entry whose declaration carries an `@internal` tag, through re-exports. */
function internalExports(entries: readonly string[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const entry of entries) {
    found.set(
      entry,
      [...new Set(exportedNames(entry))].filter((name) => exportIsInternal(entry, name) === true).sort(),
    );
  }
  return found;
}

describe("public entry points", () => {
  const packages = publishedPackages();

  test("no `.` entry point exports a declaration marked @internal", () => {
    const entries = packages.map((pkg) => join(pkg.dir, "src/index.ts")).filter((file) => existsSync(file));
    assert.ok(entries.length >= 7, `expected the published packages' entry points, found ${entries.length}`);
    const leaks = [...internalExports(entries)]
      .filter(([, names]) => names.length > 0)
      .map(([file, names]) => `${file.slice(repoRoot.length + 1)}: ${names.join(", ")}`);
    assert.deepEqual(
      leaks,
      [],
      "move these to the package's ./plugin subpath (src/plugin-api.ts) or stop exporting them",
    );
  });

  test("the check finds an @internal export, directly or re-exported", () => {
    const dir = mkdtempSync(join(tmpdir(), "public-api-"));
    try {
      writeFileSync(
        join(dir, "inner.ts"),
        "/** Plumbing. @internal */\nexport const hidden = 1;\n/** For users. */\nexport const shown = 2;\n",
      );
      writeFileSync(
        join(dir, "index.ts"),
        'export { hidden, shown } from "./inner.js";\n/** @internal */\nexport function direct(): void {}\n',
      );
      const entry = join(dir, "index.ts");
      assert.deepEqual(internalExports([entry]).get(entry), ["direct", "hidden"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a package with src/plugin-api.ts exports it as ./plugin with types, source and import", () => {
    const problems: string[] = [];
    for (const pkg of packages) {
      if (!existsSync(join(pkg.dir, "src/plugin-api.ts"))) continue;
      const entry = pkg.exports["./plugin"] as Record<string, string> | undefined;
      const wanted = { types: "./dist/plugin-api.d.ts", source: "./src/plugin-api.ts", import: "./dist/plugin-api.js" };
      if (JSON.stringify(entry) !== JSON.stringify(wanted))
        problems.push(`${pkg.name}: exports["./plugin"] should be ${JSON.stringify(wanted)}`);
    }
    assert.deepEqual(problems, []);
  });

  test("every published entry point has a committed API report", () => {
    const missing: string[] = [];
    for (const pkg of packages) {
      for (const [subpath, target] of Object.entries(pkg.exports)) {
        if (typeof target !== "object" || target === null || !("types" in target)) continue;
        const entry = subpath === "." ? "index" : subpath.replace(/^\.\//, "").replaceAll("/", "-");
        if (!existsSync(join(pkg.dir, "api", `${entry}.api.md`)))
          missing.push(`${pkg.name} ${subpath} (api/${entry}.api.md)`);
      }
    }
    assert.deepEqual(missing, [], "run `pnpm api:update` and commit packages/*/api/");
  });
});

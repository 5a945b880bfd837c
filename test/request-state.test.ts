// Request state travels in typed slots, never by string keys: a value one package leaves on a request
// for another (the current user, JWT claims, the language, the translator, the request id, the route,
// the services, the knex instance) is a slot declared once by the package that owns it
// (`defineStateSlot<User>("currentUser")` keeps it on `ctx.state.currentUser` for apps and templates;
// `defineSlot` keeps a package's private value under a symbol), and every other package goes through
// that object. This test reads every source file of packages/*/src with TypeScript's parser and
// refuses:
// - string access to a context's state (`ctx.state["currentUser"]`, `ctx.state.locale`,
//   `this.state?.["requestId"]`, `ctx.state[KEY]`), and casting it to reach a key
//   (`(ctx.state as Record<string, unknown>)[KEY]`);
// - one state key declared as a slot by two packages (each key has one owner).
// Apps may still read `ctx.state.currentUser`: the rule is the packages'. ALLOWED lists the few
// files left, each with why.
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

/** Files that may still touch `ctx.state` by key, by path from the repository root, each with its reason. */
const ALLOWED: Readonly<Record<string, string>> = {
  "packages/test-servers/src/framework-cases/testing-client.ts":
    "a framework case written as an app's view: it reads ctx.state.services the way docs tell apps they may",
};

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (entry === "node_modules" || entry === "dist" || entry.startsWith(".")) continue;
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|mts|cts)$/.test(entry) && !entry.endsWith(".d.ts") && !/\.test\.[cm]?ts$/.test(entry))
      out.push(full);
  }
  return out;
}

/** The expression under parentheses, `as`/`satisfies` casts and `!`. */
function bare(node: ts.Expression): ts.Expression {
  let current = node;
  for (;;) {
    if (ts.isParenthesizedExpression(current) || ts.isAsExpression(current) || ts.isNonNullExpression(current))
      current = current.expression;
    else if (ts.isSatisfiesExpression(current)) current = current.expression;
    else if (ts.isTypeAssertionExpression(current)) current = current.expression;
    else return current;
  }
}

/** True for `<receiver>.state` where the receiver is a request context (`ctx`, `this.ctx`, `context`, `this`). */
function isContextState(node: ts.Expression, file: ts.SourceFile): boolean {
  const expr = bare(node);
  if (!ts.isPropertyAccessExpression(expr) || expr.name.text !== "state") return false;
  const receiver = bare(expr.expression);
  if (receiver.kind === ts.SyntaxKind.ThisKeyword) return true;
  return /(^|\.)(\w*ctx|context)$/i.test(receiver.getText(file));
}

interface Finding {
  readonly where: string;
  readonly text: string;
}

/** Every string access to a context's state in one file, and the state keys it declares as slots. */
function scanFile(path: string, rel: string): { findings: Finding[]; declared: string[] } {
  const file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
  const findings: Finding[] = [];
  const declared: string[] = [];
  const report = (node: ts.Node) => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
    findings.push({ where: `${rel}:${line + 1}`, text: node.getText(file).replace(/\s+/g, " ").slice(0, 100) });
  };
  const reachesByKey = (node: ts.Node): boolean =>
    // A cast of the state object is how a key is reached around the rule (`(ctx.state as Record<...>)`).
    (ts.isElementAccessExpression(node) ||
      ts.isPropertyAccessExpression(node) ||
      ts.isAsExpression(node) ||
      ts.isTypeAssertionExpression(node)) &&
    isContextState(node.expression, file);
  const visit = (node: ts.Node): void => {
    if (reachesByKey(node)) {
      report(node);
      return;
    }
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === "defineStateSlot" &&
      node.arguments[0] !== undefined
    ) {
      const key = node.arguments[0];
      declared.push(ts.isStringLiteralLike(key) ? key.text : key.getText(file));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { findings, declared };
}

/** What the repository at `root` breaks: state reached by key outside the allowed files, keys with two owners. */
function findStateAccess(root: string, allowed: Readonly<Record<string, string>>): string[] {
  const base = join(root, "packages");
  const problems: string[] = [];
  const owners = new Map<string, Set<string>>();
  for (const pkg of readdirSync(base).sort()) {
    const src = join(base, pkg, "src");
    if (!existsSync(src)) continue;
    for (const path of sourceFiles(src)) {
      const rel = relative(root, path).split("\\").join("/");
      const { findings, declared } = scanFile(path, rel);
      for (const key of declared) owners.set(key, (owners.get(key) ?? new Set()).add(pkg));
      if (allowed[rel] !== undefined) continue;
      for (const { where, text } of findings)
        problems.push(`${where} reaches request state by key (${text}): use the owning package's slot`);
    }
  }
  for (const [key, packages] of owners)
    if (packages.size > 1)
      problems.push(`state key "${key}" is declared as a slot by ${[...packages].join(" and ")}: one owner`);
  return problems;
}

describe("request state travels in typed slots", () => {
  test("no package reaches ctx.state by a string key, and each slot key has one owner", () => {
    const problems = findStateAccess(repoRoot, ALLOWED);
    assert.deepEqual(problems, [], `\n${problems.join("\n")}`);
  });

  test("every allowed file says why", () => {
    for (const [file, reason] of Object.entries(ALLOWED)) assert.ok(reason.length > 20, `${file}: give a reason`);
  });

  test("the checker catches each kind of access, and leaves slots and other objects' state alone", () => {
    const root = mkdtempSync(join(tmpdir(), "request-state-"));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    try {
      write(
        "packages/a/src/bad.ts",
        [
          'const user = ctx.state["currentUser"];',
          "const locale = ctx.state.locale;",
          'const id = this.state?.["requestId"];',
          "const t = (ctx.state as Record<string, unknown>)[KEY];",
          'this.ctx.state["services"] = built;',
          'export const mine = defineStateSlot<string>("locale");',
          "",
        ].join("\n"),
      );
      write(
        "packages/a/src/good.ts",
        [
          "const user = currentUserSlot.get(ctx);",
          'job.state = "active";',
          "const next = { ...state, applied: state.applied };",
          "ctx.state = Object.assign(new Holder(ctx), ctx.state);",
          "",
        ].join("\n"),
      );
      write("packages/b/src/slots.ts", 'export const theirs = defineStateSlot<string>("locale");\n');
      write("packages/b/src/allowed.ts", 'const user = ctx.state["currentUser"];\n');
      const problems = findStateAccess(root, { "packages/b/src/allowed.ts": "a reason long enough to read" });
      const lines = (file: string) =>
        problems.filter((p) => p.startsWith(file)).map((p) => Number.parseInt(p.split(":")[1]!, 10));
      assert.deepEqual(lines("packages/a/src/bad.ts"), [1, 2, 3, 4, 5], problems.join("\n"));
      assert.deepEqual(lines("packages/a/src/good.ts"), [], problems.join("\n"));
      assert.deepEqual(lines("packages/b/src/allowed.ts"), [], problems.join("\n"));
      assert.ok(
        problems.includes('state key "locale" is declared as a slot by a and b: one owner'),
        problems.join("\n"),
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

// A freshly scaffolded app of each framework passes its own `npm test` (the example test
// with the framework's test client), and `routes --types` makes urlFor checked by the compiler:
// files that must compile do, and every `// @ts-expect-error` line is an error, which the control
// run (the generated file removed) shows comes from the generated declaration.
// Runs against the frameworks' built output (dist), like docs-compile: `npm test` builds first.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { initApp as initFwA } from "../packages/fw-a/src/cli/init.js";
import { initApp as initFwB } from "../packages/fw-b/src/cli/scaffold.js";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const tsc = createRequire(join(repoRoot, "package.json")).resolve("typescript/bin/tsc");
const work = mkdtempSync(join(tmpdir(), "app-tests-"));

interface Framework {
  readonly name: "fw-a" | "fw-b";
  readonly init: (dir: string) => unknown;
  readonly routes: readonly string[];
  readonly base: string;
  /** The example test's passing count. */
  readonly tests: number;
}

const FRAMEWORKS: readonly Framework[] = [
  { name: "fw-a", init: initFwA, routes: ["routes", "--types"], base: "FwA", tests: 3 },
  { name: "fw-b", init: initFwB, routes: [":routes", "--types"], base: "FwB", tests: 4 },
];

/** A view module with parameters, whose own urlFor calls are type tests (`this.urlFor`). */
const blogView = (f: Framework) => `import { ${f.base} } from "${f.name}";

export class Blog extends ${f.base} {
  index() {
    return "blog";
  }

  show(slug: string) {
    return this.urlFor("Blog.show", { slug });
  }

  comments(id: string, page = "1") {
    return this.urlFor("Blog.comments", { id, page }) + this.urlFor("Blog.comments", { id: 1 }) + page;
  }

  links() {
    const ok = [
      this.urlFor("Blog"),
      this.urlFor("Blog.index"),
      this.urlFor("Blog.show", { slug: 42, ref: "home" }),
      this.urlFor("Blog", "show", { slug: "x" }),
      this.urlFor(Blog, "show", { slug: "x" }),
      this.urlFor("Blog.comments", [42]),
      this.urlFor("Blog.comments", [42, 2]),
    ];
    // @ts-expect-error a route that does not exist
    this.urlFor("Blog.nope");
    // @ts-expect-error the required parameter is missing
    this.urlFor("Blog.show");
    // @ts-expect-error the required parameter is missing from the values
    this.urlFor("Blog.show", { ref: "home" });
    // @ts-expect-error a parameter value must be a string or a number
    this.urlFor("Blog.show", { slug: { deep: true } });
    // @ts-expect-error class and method name of a route that does not exist
    this.urlFor("Blog", "nope");
    // @ts-expect-error the positional form needs the required parameter
    this.urlFor("Blog.comments", []);
    return ok.join(" ");
  }
}
`;

/** The test client's urlFor is typed by the same declaration. */
const clientChecks = (f: Framework) => `import { testClient } from "${f.name}/testing";

export async function checks(): Promise<string[]> {
  const client = await testClient(".");
  const ok = [client.urlFor("Api.index"), client.urlFor("Blog.comments", { id: 1, page: 2, q: "x" })];
  // @ts-expect-error a route that does not exist
  client.urlFor("Api.nope");
  // @ts-expect-error id is required
  client.urlFor("Blog.comments", { page: 2 });
  await client.close();
  return ok;
}
`;

function run(command: string, args: readonly string[], cwd: string) {
  // The app's own test run is a fresh node:test run, not a child of this one, reporting in TAP
  // (read below) on every Node: Node 24 prints its spec reporter to a child otherwise.
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: "--test-reporter=tap" };
  delete env["NODE_TEST_CONTEXT"];
  delete env["APP_ENV"];
  const result = spawnSync(command, args, { cwd, encoding: "utf8", env });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("scaffolded apps: their own npm test and typed urlFor", () => {
  after(() => rmSync(work, { recursive: true, force: true }));

  for (const framework of FRAMEWORKS) {
    describe(framework.name, () => {
      const app = join(work, `${framework.name}-app`);
      const frameworkDir = join(repoRoot, "packages", framework.name);

      before(() => {
        assert.ok(
          existsSync(join(frameworkDir, "dist", "testing", "index.js")),
          `build ${framework.name} first (npm test does): its dist/ is missing`,
        );
        // init links what the app's scripts need (tsx for its test script), no install step.
        framework.init(app);
      });

      test("npm test of the new app runs its example test with the test client, and it passes", () => {
        const result = run("npm", ["test", "--silent"], app);
        assert.equal(result.status, 0, result.output);
        assert.match(result.output, new RegExp(`# pass ${framework.tests}\\b`), result.output);
        assert.match(result.output, /# fail 0\b/, result.output);
      });

      test("routes --types writes types/routes.d.ts; urlFor then compiles only with a route that exists and its required parameters", () => {
        writeFileSync(join(app, "views", "blog.ts"), blogView(framework));
        mkdirSync(join(app, "typetests"), { recursive: true });
        writeFileSync(join(app, "typetests", "client.ts"), clientChecks(framework));
        const generated = run(
          process.execPath,
          [join(frameworkDir, "bin", `${framework.name}.js`), ...framework.routes, "--root", app],
          app,
        );
        assert.equal(generated.status, 0, generated.output);
        const declaration = readFileSync(join(app, "types", "routes.d.ts"), "utf8");
        assert.match(declaration, new RegExp(`declare module "${framework.name}"`));
        assert.match(declaration, /"Blog\.show": \{ slug: RouteParamValue \};/);
        assert.match(declaration, /"Blog\.comments": \{ id: RouteParamValue; page\?: RouteParamValue \};/);

        const typed = run(process.execPath, [tsc, "-p", "tsconfig.json", "--pretty", "false"], app);
        assert.equal(typed.status, 0, `the app must type-check with the generated routes:\n${typed.output}`);

        // Control: without the declaration urlFor is loosely typed, so each expected error disappears
        // (TS2578 "Unused '@ts-expect-error' directive") and nothing else changes.
        renameSync(join(app, "types", "routes.d.ts"), join(app, "routes.d.ts.off"));
        try {
          const loose = run(process.execPath, [tsc, "-p", "tsconfig.json", "--pretty", "false"], app);
          const lines = loose.output.split("\n").filter((line) => /error TS/.test(line));
          const expected = [blogView(framework), clientChecks(framework)]
            .join("\n")
            .split("\n")
            .filter((line) => line.includes("@ts-expect-error")).length;
          assert.equal(lines.length, expected, loose.output);
          assert.ok(
            lines.every((line) => line.includes("TS2578")),
            loose.output,
          );
        } finally {
          renameSync(join(app, "routes.d.ts.off"), join(app, "types", "routes.d.ts"));
        }
      });
    });
  }
});

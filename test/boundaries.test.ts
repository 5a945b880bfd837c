// Enforces the package boundaries of docs/architecture.md ("Import graph") by reading every
// packages/*/package.json and every import of every TypeScript/JavaScript file of every package
// (sources, tests, benches, scripts), parsed with TypeScript's pre-processor, not a regex:
// - routing-kernel imports nothing of Koa and no workspace package;
// - the batteries' shared tools (@fwkit/battery-kit) import only routing-kernel, and nothing of Koa but in
//   tests: the host and everything above it build on them;
// - nothing but apps imports fw-a or fw-b (each may import itself); fw-a and fw-b never import each other;
// - conformance imports no framework: only routing-kernel in its sources, plus koa-host and Koa in its tests;
// - jobs builds on routing-kernel, battery-kit and koa-host only (tests may add test-servers): the frameworks, the app
//   kit and the CLI build on it, never the other way;
// - the host (koa-host) never imports the command line (@fwkit/cli depends on the host) nor the
//   command-line tools (yargs, esbuild, chokidar), in sources, tests or package.json.
// - the app kit (@fwkit/app-kit) assembles the frameworks: the kernel, the host, the command line,
//   conformance and the batteries never import it.
// - realtime builds on routing-kernel, battery-kit and koa-host only (tests may add test-servers): a battery, below the
//   app kit, importing no other battery.
// - observability builds on routing-kernel, battery-kit and koa-host only (tests may add test-servers, data, jobs);
//   the host, the command line and the other batteries never import it: they report through the
//   host's telemetry channels and primary parts, and the app kit adds the battery.
// - a battery (security, data, services, jobs, observability, realtime) never imports another one, in its
//   sources or its dependencies: what one puts on a request for another travels through the host's typed
//   slots and hooks. Tests may combine batteries only where TESTS_COMBINING_BATTERIES says why.
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
const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"] as const;
const FRAMEWORKS = ["fw-a", "fw-b"];

interface Package {
  readonly dir: string;
  readonly name: string;
  readonly manifest: Record<string, unknown>;
}

function readPackages(root: string, group: string): Package[] {
  const base = join(root, group);
  if (!existsSync(base)) return [];
  return readdirSync(base)
    .map((entry) => join(base, entry))
    .filter((dir) => existsSync(join(dir, "package.json")))
    .map((dir) => {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, unknown>;
      return { dir, name: String(manifest["name"]), manifest };
    });
}

function codeFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (entry === "node_modules" || entry === "dist" || entry.startsWith(".")) continue;
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...codeFiles(full));
    else if (/\.(ts|mts|cts|js|mjs|cjs)$/.test(entry) && !entry.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

/** The package a module specifier names, or undefined for relative paths and node: builtins. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("node:")) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** The command line's own package and the tools only it loads: the host lists and imports none of them. */
const COMMAND_LINE = new Set(["@fwkit/cli", "yargs", "@types/yargs", "esbuild", "chokidar"]);
/** What the app kit builds on: none of these imports it (only the frameworks, apps and tools above it do). */
const BELOW_APP_KIT = new Set([
  "routing-kernel",
  "@fwkit/battery-kit",
  "@fwkit/koa-host",
  "@fwkit/cli",
  "@fwkit/security",
  "@fwkit/data",
  "@fwkit/services",
  "@fwkit/jobs",
  "@fwkit/observability",
  "@fwkit/realtime",
  "@fwkit/conformance",
]);

/** What the observability battery observes: none of these imports it. */
const OBSERVED = new Set([
  "routing-kernel",
  "@fwkit/battery-kit",
  "@fwkit/koa-host",
  "@fwkit/cli",
  "@fwkit/security",
  "@fwkit/data",
  "@fwkit/services",
  "@fwkit/jobs",
  "@fwkit/conformance",
]);

/** The batteries (docs/architecture.md, the layer list): side by side, none importing another. */
const BATTERIES = new Set([
  "@fwkit/security",
  "@fwkit/data",
  "@fwkit/services",
  "@fwkit/jobs",
  "@fwkit/observability",
  "@fwkit/realtime",
]);

/** The only battery tests that bring in another battery, each with why: importing battery -> imported ones. */
const TESTS_COMBINING_BATTERIES: Readonly<Record<string, readonly string[]>> = {
  // Observability measures what the other batteries do: its tests run real queries and jobs.
  "@fwkit/observability": ["@fwkit/data", "@fwkit/jobs"],
};

/** The batteries' shared tools, below the host: every package above the kernel may import them. */
const BATTERY_KIT = "@fwkit/battery-kit";

const isKoa = (name: string) =>
  name === "koa" || name.startsWith("koa-") || name.startsWith("@koa/") || name.startsWith("@types/koa");

/** A rule: given the importing package, the imported package and where, the reason it is refused. */
type Rule = (from: string, imported: string, place: { test: boolean }) => string | undefined;

function rulesFor(workspace: ReadonlySet<string>): Rule[] {
  return [
    (from, imported) =>
      from === "routing-kernel" && workspace.has(imported) && imported !== from
        ? "routing-kernel imports no workspace package"
        : undefined,
    (from, imported) =>
      from === "routing-kernel" && isKoa(imported) ? "routing-kernel imports nothing of Koa" : undefined,
    (from, imported, place) =>
      from === BATTERY_KIT &&
      imported !== from &&
      ((isKoa(imported) && !place.test) || (workspace.has(imported) && imported !== "routing-kernel"))
        ? "battery-kit imports only routing-kernel and, in what it ships, nothing of Koa: the host and the batteries build on it"
        : undefined,
    (from, imported) =>
      FRAMEWORKS.includes(from) && FRAMEWORKS.includes(imported) && imported !== from
        ? "fw-a and fw-b never import each other"
        : undefined,
    (from, imported) =>
      !FRAMEWORKS.includes(from) && FRAMEWORKS.includes(imported)
        ? `nothing below ${imported} imports it (only apps and ${imported} itself)`
        : undefined,
    (from, imported) =>
      from === "@fwkit/koa-host" && COMMAND_LINE.has(imported)
        ? "the host never imports the command line: @fwkit/cli (with yargs, esbuild, chokidar) depends on the host, not the other way"
        : undefined,
    (from, imported, place) => {
      if (from !== "@fwkit/conformance") return undefined;
      if (imported === "routing-kernel" || imported === from) return undefined;
      if (place.test && (imported === "@fwkit/koa-host" || isKoa(imported))) return undefined;
      if (isKoa(imported) || workspace.has(imported)) {
        return "conformance knows frameworks only through its adapter: its sources import only routing-kernel (tests may add koa-host and Koa)";
      }
      return undefined;
    },
    (from, imported, place) => {
      if (from !== "@fwkit/jobs" || imported === from || !workspace.has(imported)) return undefined;
      if (imported === "routing-kernel" || imported === BATTERY_KIT || imported === "@fwkit/koa-host") return undefined;
      if (place.test && imported === "@fwkit/test-servers") return undefined;
      return "jobs builds on routing-kernel, battery-kit and koa-host only (its tests may add test-servers): the frameworks, app kit and CLI build on it";
    },
    (from, imported, place) => {
      if (from !== "@fwkit/realtime" || imported === from || !workspace.has(imported)) return undefined;
      if (imported === "routing-kernel" || imported === BATTERY_KIT || imported === "@fwkit/koa-host") return undefined;
      if (place.test && imported === "@fwkit/test-servers") return undefined;
      return "realtime builds on routing-kernel, battery-kit and koa-host only (its tests may add test-servers): a battery imports no other battery, and the app kit adds it";
    },
    (from, imported, place) => {
      if (from !== "@fwkit/observability" || imported === from || !workspace.has(imported)) return undefined;
      if (imported === "routing-kernel" || imported === BATTERY_KIT || imported === "@fwkit/koa-host") return undefined;
      if (place.test && ["@fwkit/test-servers", "@fwkit/data", "@fwkit/jobs"].includes(imported)) return undefined;
      return "observability builds on routing-kernel, battery-kit and koa-host only (its tests may add test-servers, data and jobs)";
    },
    (from, imported) =>
      imported === "@fwkit/observability" && OBSERVED.has(from)
        ? "the host, the command line and the batteries never import observability: they report through the host's telemetry channels (and primary parts); the app kit adds the battery"
        : undefined,
    (from, imported, place) => {
      if (!BATTERIES.has(from) || !BATTERIES.has(imported) || imported === from) return undefined;
      if (place.test && TESTS_COMBINING_BATTERIES[from]?.includes(imported)) return undefined;
      return "a battery never imports another battery: what one leaves on a request for another is a typed slot or hook of the host";
    },
    (from, imported) =>
      imported === "@fwkit/app-kit" && BELOW_APP_KIT.has(from)
        ? "the app kit assembles frameworks from the host and the batteries: the kernel, the host, the command line and the batteries never import it"
        : undefined,
  ];
}

/** Every boundary violation in the repository at `root`, one readable line each. */
function findViolations(root: string): string[] {
  const packages = readPackages(root, "packages");
  const workspace = new Set([...packages, ...readPackages(root, "apps")].map((p) => p.name));
  const rules = rulesFor(workspace);
  const violations: string[] = [];
  const check = (from: string, imported: string, place: { test: boolean }, where: string, what: string) => {
    // One line per import: the first rule it breaks.
    const reason = rules.map((rule) => rule(from, imported, place)).find((r) => r !== undefined);
    if (reason) violations.push(`${where} ${what}: ${reason} (docs/architecture.md, Import graph)`);
  };
  for (const pkg of packages) {
    const manifestPath = relative(root, join(pkg.dir, "package.json"));
    for (const field of DEPENDENCY_FIELDS) {
      const deps = (pkg.manifest[field] ?? {}) as Record<string, string>;
      // A dev dependency serves tests only; the dependencies proper are what sources may use.
      for (const name of Object.keys(deps))
        check(pkg.name, name, { test: field === "devDependencies" }, manifestPath, `lists "${name}" in ${field}`);
    }
    for (const file of codeFiles(pkg.dir)) {
      const rel = relative(root, file);
      const isTest = /(^|\/)(test|tests|__tests__)\//.test(relative(pkg.dir, file)) || /\.test\.[cm]?[jt]s$/.test(file);
      for (const { fileName } of ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles) {
        const imported = packageOf(fileName);
        if (imported) check(pkg.name, imported, { test: isTest }, rel, `imports "${fileName}"`);
      }
    }
  }
  return violations;
}

describe("package boundaries (docs/architecture.md)", () => {
  test("the repository crosses no boundary", () => {
    const violations = findViolations(repoRoot);
    assert.deepEqual(violations, [], `\n${violations.join("\n")}`);
  });

  describe("the checker catches each kind of violation, naming the file and the import", () => {
    const root = mkdtempSync(join(tmpdir(), "boundaries-"));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    const manifest = (name: string, deps: Record<string, Record<string, string>> = {}) =>
      JSON.stringify({ name, ...deps });
    write(
      "packages/battery-kit/package.json",
      manifest("@fwkit/battery-kit", { dependencies: { "routing-kernel": "workspace:*" } }),
    );
    write(
      "packages/battery-kit/src/m.ts",
      'import { x } from "routing-kernel";\nimport { y } from "@fwkit/koa-host/plugin";\n',
    );
    write("packages/routing-kernel/package.json", manifest("routing-kernel", { dependencies: { acorn: "^8" } }));
    write("packages/routing-kernel/src/a.ts", 'import type { Context } from "koa";\nexport const a = 1;\n');
    write(
      "packages/routing-kernel/src/b.ts",
      'export { x } from "@fwkit/koa-host/testing";\nconst r = await import("@koa/router");\n',
    );
    write(
      "packages/koa-host/package.json",
      manifest("@fwkit/koa-host", { dependencies: { koa: "^3", "routing-kernel": "workspace:*" } }),
    );
    write("packages/koa-host/src/ok.ts", 'import Koa from "koa";\nimport { x } from "routing-kernel";\n');
    write(
      "packages/koa-host/test/cli.test.ts",
      'import { runCli } from "@fwkit/cli";\nimport type { Argv } from "yargs";\n',
    );
    write(
      "packages/security/package.json",
      manifest("@fwkit/security", { devDependencies: { "fw-b": "workspace:*" } }),
    );
    write("packages/security/src/c.ts", 'import { FwA } from "fw-a";\n');
    write("packages/fw-a/package.json", manifest("fw-a"));
    write("packages/fw-a/src/d.ts", 'import { FwA } from "fw-a/testing";\nimport { FwB } from "fw-b";\n');
    write("packages/fw-b/package.json", manifest("fw-b"));
    write(
      "packages/conformance/package.json",
      manifest("@fwkit/conformance", { dependencies: { "routing-kernel": "workspace:*", koa: "^3" } }),
    );
    write(
      "packages/conformance/src/e.ts",
      'import { x } from "routing-kernel";\nimport { y } from "@fwkit/koa-host";\n',
    );
    write(
      "packages/conformance/test/f.test.ts",
      'import { createHost } from "@fwkit/koa-host";\nimport Koa from "koa";\nimport { FwA } from "fw-a";\n',
    );
    write(
      "packages/jobs/package.json",
      manifest("@fwkit/jobs", { dependencies: { "routing-kernel": "workspace:*", "@fwkit/app-kit": "workspace:*" } }),
    );
    write(
      "packages/jobs/src/g.ts",
      'import { x } from "@fwkit/koa-host/plugin";\nimport { t } from "@fwkit/battery-kit";\nimport { y } from "@fwkit/services";\n',
    );
    write("packages/jobs/test/h.test.ts", 'import { startRedis } from "@fwkit/test-servers";\n');
    write("packages/app-kit/package.json", manifest("@fwkit/app-kit"));
    write("packages/services/package.json", manifest("@fwkit/services"));
    write("packages/test-servers/package.json", manifest("@fwkit/test-servers"));
    write("packages/data/package.json", manifest("@fwkit/data"));
    write("packages/data/src/g.ts", 'import type { Battery } from "@fwkit/app-kit";\n');
    write(
      "packages/observability/package.json",
      manifest("@fwkit/observability", {
        dependencies: { "@fwkit/koa-host": "workspace:*", "@fwkit/services": "workspace:*" },
        devDependencies: { "@fwkit/data": "workspace:*" },
      }),
    );
    write("packages/observability/test/i.test.ts", 'import { connect } from "@fwkit/data";\n');
    write("packages/services/src/j.ts", 'import { defineCounter } from "@fwkit/observability";\n');
    write("packages/security/src/k.ts", 'import { sendMail } from "@fwkit/services";\n');
    write("packages/security/test/l.test.ts", 'import { connect } from "@fwkit/data";\n');
    write("apps/demo/package.json", manifest("demo", { dependencies: { "fw-a": "workspace:*" } }));
    write("apps/demo/views/main.ts", 'import { FwA } from "fw-a";\n');
    const violations = findViolations(root);
    rmSync(root, { recursive: true, force: true });
    const has = (pattern: RegExp) =>
      assert.ok(
        violations.some((v) => pattern.test(v)),
        `no violation matches ${pattern}:\n${violations.join("\n")}`,
      );

    test("routing-kernel importing Koa (also type-only and dynamic imports)", () => {
      has(/^packages\/routing-kernel\/src\/a\.ts imports "koa": routing-kernel imports nothing of Koa/);
      has(/^packages\/routing-kernel\/src\/b\.ts imports "@koa\/router": routing-kernel imports nothing of Koa/);
    });

    test("battery-kit importing the host (the kernel is fine)", () => {
      has(
        /^packages\/battery-kit\/src\/m\.ts imports "@fwkit\/koa-host\/plugin": battery-kit imports only routing-kernel/,
      );
      assert.ok(!violations.some((v) => v.includes('m.ts imports "routing-kernel"')), violations.join("\n"));
    });

    test("routing-kernel importing a workspace package", () => {
      has(
        /^packages\/routing-kernel\/src\/b\.ts imports "@fwkit\/koa-host\/testing": routing-kernel imports no workspace package/,
      );
    });

    test("a package below the frameworks importing one, in sources or in package.json", () => {
      has(/^packages\/security\/src\/c\.ts imports "fw-a": nothing below fw-a imports it/);
      has(/^packages\/security\/package\.json lists "fw-b" in devDependencies: nothing below fw-b imports it/);
    });

    test("fw-a importing fw-b (fw-a importing itself is fine)", () => {
      has(/^packages\/fw-a\/src\/d\.ts imports "fw-b": fw-a and fw-b never import each other/);
      assert.ok(!violations.some((v) => v.includes('"fw-a/testing"')), violations.join("\n"));
    });

    test("a battery importing the app kit (type-only too)", () => {
      has(
        /^packages\/data\/src\/g\.ts imports "@fwkit\/app-kit": the app kit assembles frameworks from the host and the batteries/,
      );
    });

    test("the host importing the command line or its tools (tests included)", () => {
      has(/^packages\/koa-host\/test\/cli\.test\.ts imports "@fwkit\/cli": the host never imports the command line/);
      has(/^packages\/koa-host\/test\/cli\.test\.ts imports "yargs": the host never imports the command line/);
    });

    test("jobs importing a workspace package other than routing-kernel, battery-kit and koa-host", () => {
      has(
        /^packages\/jobs\/package\.json lists "@fwkit\/app-kit" in dependencies: jobs builds on routing-kernel, battery-kit and koa-host only/,
      );
      has(/^packages\/jobs\/src\/g\.ts imports "@fwkit\/services": jobs builds on/);
      assert.ok(
        !violations.some((v) =>
          /packages\/jobs\/(src\/g\.ts imports "@fwkit\/(koa-host|battery-kit)|test\/h\.test\.ts)/.test(v),
        ),
        violations.join("\n"),
      );
    });

    test("observability depending on a battery; a battery importing observability", () => {
      has(
        /^packages\/observability\/package\.json lists "@fwkit\/services" in dependencies: observability builds on routing-kernel, battery-kit and koa-host only/,
      );
      has(
        /^packages\/services\/src\/j\.ts imports "@fwkit\/observability": the host, the command line and the batteries never import observability/,
      );
      assert.ok(
        !violations.some((v) =>
          /packages\/observability\/(test\/i\.test\.ts|package\.json lists "@fwkit\/(data|koa-host)")/.test(v),
        ),
        violations.join("\n"),
      );
    });

    test("a battery importing another battery (sources, and tests not listed as combining them)", () => {
      has(/^packages\/security\/src\/k\.ts imports "@fwkit\/services": a battery never imports another battery/);
      has(/^packages\/security\/test\/l\.test\.ts imports "@fwkit\/data": a battery never imports another battery/);
    });

    test("conformance sources importing koa-host or listing Koa; its tests importing a framework", () => {
      has(
        /^packages\/conformance\/src\/e\.ts imports "@fwkit\/koa-host": conformance knows frameworks only through its adapter/,
      );
      has(/^packages\/conformance\/package\.json lists "koa" in dependencies: conformance knows/);
      has(/^packages\/conformance\/test\/f\.test\.ts imports "fw-a": nothing below fw-a imports it/);
      assert.ok(!violations.some((v) => /f\.test\.ts imports "(@fwkit\/koa-host|koa)"/.test(v)), violations.join("\n"));
    });

    test("allowed imports are not reported (koa-host on Koa and the kernel, apps on fw-a)", () => {
      assert.ok(
        !violations.some(
          (v) =>
            v.startsWith("packages/koa-host/src/ok.ts") ||
            v.startsWith("packages/koa-host/package.json") ||
            v.startsWith("apps/"),
        ),
        violations.join("\n"),
      );
      assert.equal(violations.length, 19, violations.join("\n"));
    });
  });
});

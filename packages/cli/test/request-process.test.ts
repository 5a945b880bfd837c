// A process that only serves requests (createApp, the test client) loads nothing of the command
// line: not this package, not yargs (the parser), not esbuild (the build), not node:cluster (the
// production runner). Each case runs fw-a or fw-b in a fresh Node process (sources through tsx,
// as the tests load them) that records every ES module it resolves, every CommonJS module it
// requires and every Node built-in it loads.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { modulesLoadedBy } from "@fwkit/test-servers";

const packages = fileURLToPath(new URL("../../", import.meta.url));

/** What a process loaded: module URLs and paths, and the Node built-ins (`cluster`). */
interface Loaded {
  readonly modules: readonly string[];
  readonly builtins: readonly string[];
}

/** Runs `script` (an ES module body) in a fresh Node process in `cwd` and reports what it loaded. */
function loadedBy(cwd: string, script: string): Loaded {
  const loaded = modulesLoadedBy(cwd, script);
  return { modules: [...loaded.esm, ...loaded.commonjs], builtins: loaded.builtins };
}

/** The files of `@fwkit/cli/commands` and `@fwkit/cli/errors`, which an app's own code may import. */
const LIGHT_ENTRIES = /^(script-command|errors)\.(ts|js)$/;

/** The command line's parts among what a process loaded, one readable line each. */
function commandLineParts(loaded: Loaded): string[] {
  const found = new Set<string>();
  for (const module of loaded.modules) {
    if (/\/node_modules\/yargs(-parser)?\//.test(module)) found.add("yargs");
    // tsx transforms the sources with esbuild's CommonJS build: only an ES import of esbuild is the build's.
    if (/\/node_modules\/esbuild\//.test(module) && module.startsWith("file:")) found.add("esbuild (ES import)");
    if (/\/node_modules\/chokidar\//.test(module)) found.add("chokidar");
    // Its two light entries (defineCommands, the error codes) import neither; anything else is the command line.
    const cli = /\/(?:packages\/cli|node_modules\/@fwkit\/cli)\/(?:src|dist)\/(.+)$/.exec(module)?.[1];
    if (cli !== undefined && !LIGHT_ENTRIES.test(cli)) found.add(`@fwkit/cli (${cli})`);
  }
  if (loaded.builtins.includes("cluster")) found.add("node:cluster");
  return [...found].sort();
}

for (const framework of ["fw-a", "fw-b"]) {
  const packageDir = join(packages, framework);
  const fixture = join(packageDir, "test", "fixture-app");
  const config = `{ env: "test", logRequests: false, dbUrl: "sqlite::memory:" }`;

  describe(`${framework}: a process that serves requests loads nothing of the command line`, () => {
    test("createApp and a request through the app in memory", () => {
      const loaded = loadedBy(
        packageDir,
        `const { createApp } = await import(${JSON.stringify(framework)});
const app = await createApp({ root: ${JSON.stringify(fixture)}, config: ${config} });
const { inject } = await import("light-my-request");
const res = await inject(app.callback(), { method: "GET", url: "/" });
if (res.statusCode !== 200) throw new Error("GET / answered " + res.statusCode);
await app.close();`,
      );
      // The recorder works: the request host and the frameworks' own code show up.
      assert.ok(
        loaded.modules.some((module) => /\/packages\/koa-host\/src\//.test(module)),
        "koa-host's sources were recorded",
      );
      assert.ok(loaded.builtins.includes("http"), "node:http was recorded");
      // Not listening: net.Server#listen itself loads node:cluster (to ask whether it runs in a
      // worker), whatever the app; `start` is what listens in production.
      assert.deepEqual(commandLineParts(loaded), []);
    });

    test("the test client (its in-memory requests)", () => {
      const loaded = loadedBy(
        packageDir,
        `const { testClient } = await import(${JSON.stringify(`${framework}/testing`)});
const client = await testClient({ root: ${JSON.stringify(fixture)}, modules: [], config: ${config} });
const res = await client.get("/healthz");
if (res.status !== 200) throw new Error("GET /healthz answered " + res.status);
await client.close();`,
      );
      assert.ok(
        loaded.modules.some((module) => /\/node_modules\/light-my-request\//.test(module)),
        "the test client's injector was recorded",
      );
      assert.deepEqual(commandLineParts(loaded), []);
    });
  });
}

test("the recorder sees the command line when a process loads it", () => {
  const loaded = loadedBy(
    join(packages, "fw-a"),
    `await import("@fwkit/cli");
await import("node:cluster");`,
  );
  const parts = commandLineParts(loaded);
  for (const part of ["@fwkit/cli (index.ts)", "yargs", "node:cluster"])
    assert.ok(parts.includes(part), `${part} in ${parts.join(", ")}`);
});

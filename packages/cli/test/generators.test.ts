// A new app made by an installed framework (npm, npx's cache) asks for the framework's registry
// version and links nothing; made from the repository's checkout it links the framework's folder.
// Into a folder with a package.json (npm init -y && npm install fw-a), the app's settings are merged.
import assert from "node:assert/strict";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { initApp, type AppScaffold } from "../src/generators.js";

const work = mkdtempSync(join(tmpdir(), "kit-init-"));
after(() => rmSync(work, { recursive: true, force: true }));

const checkoutFramework = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "fw-a");

/** A framework's package, installed as npm installs one (in a node_modules folder). */
function installedFramework(): string {
  const dir = join(work, "elsewhere", "node_modules", "fake-fw");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "fake-fw", version: "0.3.1", bin: {} }));
  return dir;
}

const scaffold = (frameworkDir: string): AppScaffold => ({
  framework: "fake-fw",
  frameworkDir,
  skeleton: (name) => ({
    "package.json": `${JSON.stringify({
      name,
      private: true,
      type: "module",
      scripts: { dev: "fake-fw serve", test: "node --import tsx --test test/*.test.ts" },
      dependencies: { "fake-fw": `file:${frameworkDir}`, zod: "^4.0.0" },
      devDependencies: { tsx: "^4.0.0" },
      engines: { node: "^22.12.0 || >=24.0.0" },
    })}\n`,
    "app.ts": "export {};\n",
  }),
});

const manifest = (app: string) => JSON.parse(readFileSync(join(app, "package.json"), "utf8"));

test("an installed framework's scaffold asks for its registry version and links nothing", () => {
  const app = join(work, "from-registry");
  const result = initApp(app, scaffold(installedFramework()));
  assert.equal(result.registry, true);
  assert.equal(manifest(app).dependencies["fake-fw"], "^0.3.1");
  assert.ok(!existsSync(join(app, "node_modules")), "nothing linked: the app's npm install fetches it");
  assert.equal(readFileSync(join(app, ".nvmrc"), "utf8"), "24\n", "the app names Node 24, the current LTS");
  // npm 11.16+ warns about install scripts not listed here; npm 12 skips them.
  assert.deepEqual(manifest(app).allowScripts, {
    "better-sqlite3": true,
    bcrypt: true,
    esbuild: true,
    "@scarf/scarf": false,
  });
});

test("--no-registry links the framework's folder even when installed; --registry asks for the version from a checkout", () => {
  const linked = join(work, "linked");
  const framework = installedFramework();
  assert.equal(initApp(linked, scaffold(framework), new Date(), { registry: false }).registry, false);
  assert.equal(manifest(linked).dependencies["fake-fw"], `file:${framework}`);
  assert.ok(lstatSync(join(linked, "node_modules", "fake-fw")).isSymbolicLink());

  const fromCheckout = join(work, "checkout-registry");
  const version = JSON.parse(readFileSync(join(checkoutFramework, "package.json"), "utf8")).version;
  initApp(fromCheckout, scaffold(checkoutFramework), new Date(), { registry: true });
  assert.equal(manifest(fromCheckout).dependencies["fake-fw"], `^${version}`);
});

test("from the repository's checkout, the scaffold links the framework's folder", () => {
  const app = join(work, "from-checkout");
  const result = initApp(app, scaffold(checkoutFramework));
  assert.equal(result.registry, false);
  assert.match(manifest(app).dependencies["fake-fw"], /^file:\/.*fw-a$/);
});

test("into a folder made by npm init -y and npm install: scripts, type and dependencies are merged", () => {
  const app = join(work, "npm-init");
  mkdirSync(app, { recursive: true });
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify({
      name: "npm-init",
      version: "1.0.0",
      main: "index.js",
      type: "commonjs",
      scripts: { test: 'echo "Error: no test specified" && exit 1', lint: "eslint ." },
      dependencies: { "fake-fw": "^0.3.0" },
    }),
  );
  const result = initApp(app, scaffold(installedFramework()));
  const merged = manifest(app);
  assert.equal(merged.type, "module");
  assert.equal(merged.scripts.dev, "fake-fw serve");
  assert.equal(merged.scripts.test, "node --import tsx --test test/*.test.ts", "npm init's placeholder is replaced");
  assert.equal(merged.scripts.lint, "eslint .", "the app's own scripts stay");
  assert.equal(merged.dependencies["fake-fw"], "^0.3.0", "the installed framework's range stays");
  assert.equal(merged.dependencies.zod, "^4.0.0");
  assert.equal(merged.devDependencies.tsx, "^4.0.0");
  assert.equal(merged.engines.node, "^22.12.0 || >=24.0.0");
  assert.equal(merged.version, "1.0.0");
  assert.deepEqual(result.skipped, []);
  assert.equal(result.updated.length, 1);
  assert.match(
    result.updated[0]!,
    /^package\.json \(type: "module"; scripts: dev, test; dependencies: zod; devDependencies: tsx; engines/,
  );
});

test("a package.json that cannot be merged is refused with nothing written", () => {
  const app = join(work, "broken");
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, "package.json"), "{ not json");
  assert.throws(
    () => initApp(app, scaffold(installedFramework())),
    (error: Error & { code?: string }) => {
      assert.equal(error.code, "E_INIT_PACKAGE_JSON");
      assert.match(error.message, /not valid JSON.*Nothing was written/);
      return true;
    },
  );
  assert.ok(!existsSync(join(app, "app.ts")));
});

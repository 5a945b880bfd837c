// Importing fw-b (and fw-b/contrib), and running an app that configures no optional backend or
// contrib module, loads none of their drivers: they are imported when an app configures them.
// Each case runs in a fresh Node process (sources through tsx, as the tests do) that records every
// module it loads: CommonJS ones from require.cache, ES modules from a resolve hook.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const fixtureApp = fileURLToPath(new URL("./fixture-app", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "fw-b-lazy-"));

/** Packages an app that configures no Redis, PostgreSQL/MySQL, mail, S3, bundles, JWT, OAuth, captcha... must not load. */
const DRIVERS = [
  "ioredis",
  "pg",
  "mysql2",
  "nodemailer",
  "@aws-sdk/*",
  "@smithy/*",
  "esbuild",
  "flydrive",
  "jose",
  "bcrypt",
  "@node-rs/argon2",
  "@koa/cors",
  "pino-pretty",
  "openid-client",
  "svg-captcha",
  "i18next",
  // The command-line parser (only the CLI needs it) and the body parser (loaded with the first body).
  "yargs",
  "koa-body",
];

// A resolve hook (it runs on the loader thread, so it appends to a file) and a reporter run at exit.
const hook = join(work, "record-hook.mjs");
writeFileSync(
  hook,
  `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.LAZY_ESM_LOG, result.url + "\\n");
  return result;
}
`,
);
const recorder = join(work, "recorder.mjs");
writeFileSync(
  recorder,
  `import { createRequire, register } from "node:module";
import { writeFileSync } from "node:fs";
register(${JSON.stringify(pathToFileURL(hook).href)});
const require = createRequire(import.meta.url);
process.on("exit", () => writeFileSync(process.env.LAZY_CJS_LOG, Object.keys(require.cache).join("\\n")));
`,
);

after(() => rmSync(work, { recursive: true, force: true }));

/** The package a module path belongs to (`@scope/name` or `name`), or undefined outside node_modules. */
function packageOf(path: string): string | undefined {
  const match = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
  return match?.[1];
}

interface Loaded {
  /** Packages of the CommonJS modules in require.cache. */
  readonly commonjs: Set<string>;
  /** Packages of the ES module URLs resolved through the loader. */
  readonly esm: Set<string>;
}

/** Runs `script` (an ES module body, `fw-b` importable) in a fresh process and reports what it loaded. */
function loadedBy(name: string, script: string): Loaded {
  const cjsLog = join(work, `${name}.cjs.log`);
  const esmLog = join(work, `${name}.esm.log`);
  writeFileSync(esmLog, "");
  const result = spawnSync(
    process.execPath,
    ["--conditions=source", "--import", "tsx", "--import", pathToFileURL(recorder).href, "--input-type=module", "-e", script],
    { cwd: packageDir, encoding: "utf8", env: { ...process.env, LAZY_CJS_LOG: cjsLog, LAZY_ESM_LOG: esmLog }, timeout: 120_000 },
  );
  assert.equal(result.status, 0, `the child process failed:\n${result.stderr}`);
  const packages = (lines: string) => new Set(lines.split("\n").map(packageOf).filter((p): p is string => p !== undefined));
  return { commonjs: packages(readFileSync(cjsLog, "utf8")), esm: packages(readFileSync(esmLog, "utf8")) };
}

/** The drivers among the loaded packages; tsx itself loads esbuild, so only an ES import of it counts. */
function driversIn(loaded: Loaded, allowed: readonly string[] = []): string[] {
  const matches = (pkg: string, pattern: string) => (pattern.endsWith("/*") ? pkg.startsWith(pattern.slice(0, -1)) : pkg === pattern);
  const found = new Set<string>();
  for (const pattern of DRIVERS) {
    if (allowed.includes(pattern)) continue;
    for (const pkg of loaded.esm) if (matches(pkg, pattern)) found.add(pkg);
    if (pattern === "esbuild") continue;
    for (const pkg of loaded.commonjs) if (matches(pkg, pattern)) found.add(pkg);
  }
  return [...found].sort();
}

describe("fw-b loads backend and contrib drivers only when an app configures them", () => {
  test("import('fw-b') and import('fw-b/contrib') load none of them", () => {
    const loaded = loadedBy("import", `await import("fw-b"); await import("fw-b/contrib");`);
    // The recorder works: the framework's own dependencies show up.
    assert.ok(loaded.esm.has("koa") || loaded.commonjs.has("koa"), "koa was recorded");
    assert.ok(loaded.commonjs.has("knex"), "knex (the data layer) was recorded");
    assert.deepEqual(driversIn(loaded), []);
  });

  test("an app on the defaults (SQLite, cookie sessions, memory cache, local files, no mail, no contrib) serving a page loads none of them", () => {
    const loaded = loadedBy(
      "default-app",
      `const { createApp } = await import("fw-b");
const app = await createApp({ root: ${JSON.stringify(fixtureApp)}, config: { env: "test", logRequests: false, dbUrl: "sqlite::memory:" } });
const server = await app.listen(0, "127.0.0.1");
const res = await fetch("http://127.0.0.1:" + server.address().port + "/");
if (res.status !== 200) throw new Error("GET / answered " + res.status + ": " + (await res.text()));
await app.close();`,
    );
    assert.ok(loaded.commonjs.has("better-sqlite3"), "the SQLite driver was loaded");
    // The default layout translates its labels, so the first page rendered loads i18next.
    assert.deepEqual(driversIn(loaded, ["i18next"]), []);
  });

  test("the captcha's svg-captcha is loaded at the first challenge drawn, not when the app starts", () => {
    const loaded = loadedBy(
      "captcha-app",
      `const { createRequire } = await import("node:module");
const { createApp } = await import("fw-b");
const app = await createApp({ root: ${JSON.stringify(fixtureApp)}, config: { env: "test", logRequests: false, dbUrl: "sqlite::memory:", contrib: { captcha: true } } });
const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes("/node_modules/svg-captcha/"));
if (loaded()) throw new Error("svg-captcha was loaded at start-up");
const { svgCaptchaVerifier } = await import("fw-b/contrib");
svgCaptchaVerifier("secret").challenge({ session: {} });
if (!loaded()) throw new Error("svg-captcha was not loaded by a challenge");
await app.close();`,
    );
    assert.deepEqual(driversIn(loaded, ["svg-captcha"]), []);
  });
});

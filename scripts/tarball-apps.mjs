#!/usr/bin/env node
// `npm run test:tarballs` (a step of `npm test`): the public packages as a registry user installs
// them. Packs every public package (pack-workspace.mjs), prints the tarballs' sizes, checks what each
// ships, then for fw-a and fw-b, in a temporary folder outside the repository with no workspace
// around it: `npm install` of the framework's tarball (the other packages' tarballs as overrides,
// the registry for everything else), and with only that: the packed CLI's init, the app's own
// `npm install`, a command that needs the database driver, the dev server (200), the app's
// `npm test`, `build`, production `start` (200), `release`, and a job worker (QUEUE_URL=redis://,
// with bullmq installed as the docs say) that runs a dispatched job. Installs prefer the npm cache
// (--prefer-offline), so a warm machine fetches nothing.
//
// Usage: node scripts/tarball-apps.mjs [--keep] [--only fw-a|fw-b]
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { packWorkspace, run, useTarballs } from "./pack-workspace.mjs";
import { root } from "./pnpm.mjs";

const args = process.argv.slice(2);
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined;
/** A framework's commands, as its CLI names them. */
const FRAMEWORKS = {
  "fw-a": {
    init: "gen:init",
    routes: "routes",
    migrate: "db:migrate",
    release: "release",
    work: "jobs:work",
    dispatch: "jobs:dispatch",
    job: "RenameNote",
    // The row the job changes, and the payload that changes it.
    table: "notes",
    payload: { noteId: 1, title: "Renamed by the worker" },
    check: "select title as value from notes where id = 1",
    expected: "Renamed by the worker",
  },
  "fw-b": {
    init: ":init",
    routes: ":routes",
    migrate: ":migrate",
    release: ":release",
    work: ":work",
    dispatch: ":dispatch",
    job: "SetPrice",
    table: "products",
    payload: { productId: 1, price: 7.25 },
    check: "select price as value from products where id = 1",
    expected: 7.25,
  },
};
/** Install warnings that name a test tool or driver an app does not use: its install must not see them. */
const NOISE = /azurite|smtp-server|@azure\/storage-blob|s3rver|aws-ses-v2-local|playwright/;

const failures = [];
const check = (ok, message) => {
  if (!ok) failures.push(message);
  console.log(`  ${ok ? "ok  " : "FAIL"} ${message}`);
};

const work = mkdtempSync(join(tmpdir(), "fw-tarball-apps-"));
const prebuilds = join(work, "prebuilds");

/** The environment of an app's commands: nothing of the repository's test run leaks in. */
function environment(extra = {}) {
  const env = { ...process.env, NODE_OPTIONS: "", FW_TS_LOADER: "", npm_config_loglevel: "warn", ...extra };
  for (const name of ["NODE_TEST_CONTEXT", "APP_ENV", "INIT_CWD", "npm_config_prefix"])
    if (!(name in extra)) delete env[name];
  for (const name of Object.keys(env))
    if (name.startsWith("npm_package_") || name === "npm_lifecycle_event") delete env[name];
  return { ...env, npm_config_better_sqlite3_local_prebuilds: prebuilds };
}

function sh(command, cwd, extra = {}) {
  const result = spawnSync("sh", ["-c", command], { cwd, encoding: "utf8", env: environment(extra), timeout: 600_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts `command` in its own process group; returns it with its output so far. */
function background(command, cwd, extra) {
  const child = spawn("sh", ["-c", `exec ${command}`], {
    cwd,
    env: environment(extra),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const state = { child, output: "" };
  child.stdout.on("data", (chunk) => (state.output += chunk));
  child.stderr.on("data", (chunk) => (state.output += chunk));
  return state;
}

async function stop({ child }) {
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    // already gone
  }
  await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve()));
}

/** Polls `probe` (returns true when done) every 250 ms for up to `seconds`, while `state`'s process runs. */
async function until(state, seconds, probe) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (state.child.exitCode !== null) return false;
    if (await probe().catch(() => false)) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

/** Runs a serving command and reports whether `/` answered 200 on 127.0.0.1. */
async function serves(command, cwd, extra = {}) {
  const port = await freePort();
  const state = background(command, cwd, { ...extra, PORT: String(port) });
  try {
    const ok = await until(state, 90, async () => (await fetch(`http://127.0.0.1:${port}/`)).status === 200);
    if (!ok) console.log(state.output);
    return ok;
  } finally {
    await stop(state);
  }
}

/** A value read from the app's SQLite database with the app's own better-sqlite3. */
function readDb(appDir, file, sql) {
  const script = `const Database = require("better-sqlite3"); const db = new Database(${JSON.stringify(file)}, { readonly: true });
    process.stdout.write(JSON.stringify(db.prepare(${JSON.stringify(sql)}).get()?.value ?? null)); db.close();`;
  const result = spawnSync(process.execPath, ["-e", script], { cwd: appDir, encoding: "utf8" });
  return result.status === 0 ? JSON.parse(result.stdout) : undefined;
}

/** What a tarball ships: file list and manifest. */
function tarballContents(file) {
  const listing = spawnSync("tar", ["-tzf", file], { encoding: "utf8" });
  const manifest = JSON.parse(spawnSync("tar", ["-xzOf", file, "package/package.json"], { encoding: "utf8" }).stdout);
  return {
    files: listing.stdout
      .split("\n")
      .filter(Boolean)
      .map((path) => path.replace(/^package\//, "")),
    manifest,
  };
}

function reportTarballs(tarballs) {
  console.log("\nThe tarballs (pnpm pack):\n\n| package | packed kB | files |\n| --- | ---: | ---: |");
  let total = 0;
  const contents = {};
  for (const [name, { file, bytes }] of Object.entries(tarballs)) {
    contents[name] = tarballContents(file);
    total += bytes;
    console.log(`| ${name} | ${(bytes / 1024).toFixed(1)} | ${contents[name].files.length} |`);
  }
  console.log(`| all ${Object.keys(tarballs).length} | ${(total / 1024).toFixed(1)} | |\n`);
  for (const [name, { files, manifest }] of Object.entries(contents)) {
    const ranges = ["dependencies", "peerDependencies", "optionalDependencies"].flatMap((field) =>
      Object.entries(manifest[field] ?? {}).map(([dependency, range]) => `${field}.${dependency}@${range}`),
    );
    check(
      files.some((path) => path.startsWith("dist/")) && files.includes("README.md") && files.includes("LICENSE"),
      `${name} ships dist/, README.md and LICENSE`,
    );
    check(
      !files.some(
        (path) =>
          /(^|\/)(test|tests|fixtures?)\/|\.(test|spec)\.[cm]?[jt]s$|\.map$/.test(path) && !path.endsWith(".tmpl"),
      ) && !files.some((path) => path.startsWith("src/")),
      `${name} ships no tests, fixtures, sources or source maps`,
    );
    check(
      !ranges.some((range) => /@(workspace:|\*$|$)/.test(range)),
      `${name}'s dependency and peer ranges are versions (${ranges.filter((range) => /@(workspace:|\*$|$)/.test(range)).join(", ") || "no workspace: or *"})`,
    );
  }
}

async function appFromTarballs(framework, tarballs) {
  const spec = FRAMEWORKS[framework];
  const app = join(work, `${framework}-tarball-${randomBytes(3).toString("hex")}`);
  console.log(`\n${framework}: ${app}`);
  mkdirSync(app);
  // As a registry user starts: an empty package.json, the framework installed, then its init.
  writeFileSync(join(app, "package.json"), `${JSON.stringify({ name: basename(app), private: true }, null, 2)}\n`);
  useTarballs(app, framework, tarballs);
  const install = sh("npm install --no-audit --no-fund --prefer-offline", app);
  check(
    install.status === 0,
    `npm install of the ${framework} tarball${install.status === 0 ? "" : `:\n${install.output}`}`,
  );
  if (install.status !== 0) return;
  const init = sh(`npx --no-install ${framework} ${spec.init}`, app);
  check(init.status === 0, `npx ${framework} ${spec.init}${init.status === 0 ? "" : `:\n${init.output}`}`);
  check(
    /Next: .*npm install/.test(init.output),
    `init's Next line names npm install (${/Next: .*/.exec(init.output)?.[0]})`,
  );
  const manifest = JSON.parse(readFileSync(join(app, "package.json"), "utf8"));
  check(
    manifest.dependencies[framework]?.startsWith("file:") && manifest.overrides?.["@fwkit/cli"]?.startsWith("file:"),
    "init kept the app's dependency on the tarball and its overrides",
  );
  const appInstall = sh("npm install --no-audit --no-fund --prefer-offline", app);
  check(appInstall.status === 0, `the app's npm install${appInstall.status === 0 ? "" : `:\n${appInstall.output}`}`);
  const warnings = appInstall.output.split("\n").filter((line) => /npm warn/i.test(line));
  if (warnings.length > 0) console.log(`    its warnings:\n      ${warnings.join("\n      ")}`);
  check(
    !warnings.some((line) => NOISE.test(line)),
    "its install warns about no test tool or driver the app does not use",
  );
  const routes = sh(`npx --no-install ${framework} ${spec.routes}`, app);
  check(
    routes.status === 0,
    `npx ${framework} ${spec.routes} (loads the database driver)${routes.status === 0 ? "" : `:\n${routes.output}`}`,
  );
  check(await serves("npm run dev", app), "npm run dev answers 200 on 127.0.0.1");
  const tests = sh("npm test", app);
  check(tests.status === 0, `the app's npm test${tests.status === 0 ? "" : `:\n${tests.output}`}`);
  const build = sh("npm run build", app);
  check(build.status === 0, `npm run build${build.status === 0 ? "" : `:\n${build.output}`}`);
  const production = { APP_ENV: "production", SECRET_KEY: randomBytes(48).toString("base64url") };
  check(await serves("npm start -- --workers 1", app, production), "npm start (production) answers 200");
  const release = sh(`npx --no-install ${framework} ${spec.release}`, app, production);
  check(
    release.status === 0 && existsSync(join(app, "current")),
    `npx ${framework} ${spec.release} (build, migrate, switch)${release.status === 0 ? "" : `:\n${release.output}`}`,
  );
  await worker(framework, app);
}

/** bullmq added as the docs say, a job dispatched, a worker started: the job's change reaches the database. */
async function worker(framework, app) {
  const spec = FRAMEWORKS[framework];
  const peers = JSON.parse(readFileSync(join(app, "node_modules", "@fwkit", "jobs", "package.json"), "utf8"));
  const bullmq = sh(`npm install --no-audit --no-fund --prefer-offline bullmq@"${peers.peerDependencies.bullmq}"`, app);
  check(bullmq.status === 0, `npm install bullmq${bullmq.status === 0 ? "" : `:\n${bullmq.output}`}`);
  const queue = { QUEUE_URL: "redis://127.0.0.1:6379/0", DB_URL: "sqlite:data/worker.db" };
  const migrate = sh(`npx --no-install ${framework} ${spec.migrate}`, app, queue);
  check(migrate.status === 0, `npx ${framework} ${spec.migrate}${migrate.status === 0 ? "" : `:\n${migrate.output}`}`);
  const dispatch = sh(
    `npx --no-install ${framework} ${spec.dispatch} ${spec.job} --payload '${JSON.stringify(spec.payload)}'`,
    app,
    queue,
  );
  check(
    dispatch.status === 0,
    `npx ${framework} ${spec.dispatch} ${spec.job}${dispatch.status === 0 ? "" : `:\n${dispatch.output}`}`,
  );
  const state = background(`npx --no-install ${framework} ${spec.work}`, app, queue);
  try {
    const ran = await until(state, 90, async () => readDb(app, "data/worker.db", spec.check) === spec.expected);
    if (!ran) console.log(state.output);
    check(ran, `npx ${framework} ${spec.work} ran ${spec.job} (QUEUE_URL=redis://)`);
  } finally {
    await stop(state);
  }
}

const started = Date.now();
try {
  // The workspace's compiled better-sqlite3 as a local prebuilt binary for the apps' installs (this
  // machine cannot download one; compiling takes minutes): test-servers' helper, through tsx.
  run(
    process.execPath,
    [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      `import { localSqlitePrebuilds } from ${JSON.stringify(join(root, "packages", "test-servers", "src", "sqlite-prebuild.ts"))}; localSqlitePrebuilds(${JSON.stringify(prebuilds)});`,
    ],
    root,
  );
  const tarballs = packWorkspace(join(work, "tarballs"));
  reportTarballs(tarballs);
  for (const framework of Object.keys(FRAMEWORKS))
    if (!only || only === framework) await appFromTarballs(framework, tarballs);
} finally {
  if (args.includes("--keep")) console.log(`\nkept: ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
console.log(
  `\ntarball apps: ${failures.length === 0 ? "all checks passed" : `${failures.length} FAILED:\n  ${failures.join("\n  ")}`} (${((Date.now() - started) / 60000).toFixed(1)} min)`,
);
process.exitCode = failures.length === 0 ? 0 : 1;

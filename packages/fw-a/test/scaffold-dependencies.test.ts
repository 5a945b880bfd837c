import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { skeletonFiles } from "../src/cli/skeleton.js";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const declared = JSON.parse(readFileSync(join(PACKAGE_DIR, "package.json"), "utf8")) as Record<
  string,
  Record<string, string>
>;
const rangeOf = (name: string) => declared["dependencies"]?.[name] ?? declared["devDependencies"]?.[name];

test("a new fw-a app lists only what its configuration uses, at the framework's declared ranges", () => {
  const files = skeletonFiles("shop", "/opt/fw-a");
  const pkg = JSON.parse(files["package.json"]!) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
    overrides: Record<string, string>;
  };
  assert.deepEqual(Object.keys(pkg.dependencies).sort(), ["bcrypt", "better-sqlite3", "fw-a", "zod"]);
  assert.deepEqual(Object.keys(pkg.devDependencies).sort(), [
    "@faker-js/faker",
    "@types/koa",
    "@types/node",
    "@types/yargs",
    "chokidar",
    "esbuild",
    "light-my-request",
    "pino-pretty",
    "swagger-ui-dist",
    "tsx",
    "typescript-dev",
  ]);
  for (const [name, range] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies })) {
    // TypeScript is the workspace's (the framework declares none), under another name so that
    // i18next's optional peer on typescript keeps none in a production install.
    if (name === "typescript-dev") assert.match(range, /^npm:typescript@~\d+\.\d+\.\d+$/);
    else if (name !== "fw-a") assert.equal(range, rangeOf(name), `${name} at the range fw-a declares`);
  }
  // nunjucks' optional peer chokidar is the app's own, so production installs no second one.
  assert.deepEqual(pkg.overrides, { nunjucks: { chokidar: "$chokidar" } });
  // The default configuration is what the drivers follow: SQLite, and bcrypt as the hasher.
  assert.match(files["lib/config.ts"]!, /dbUrl: "sqlite:/);
});

test("a new app declares the Node versions the frameworks and the workspace declare", () => {
  const pkg = JSON.parse(skeletonFiles("shop", "/opt/fw-a")["package.json"]!) as { engines: { node: string } };
  const repo = join(PACKAGE_DIR, "..", "..");
  for (const manifest of [
    join(repo, "package.json"),
    ...["routing-kernel", "koa-host", "cli", "data", "security", "services", "fw-a", "fw-b"].map((name) =>
      join(repo, "packages", name, "package.json"),
    ),
  ]) {
    assert.equal(
      (JSON.parse(readFileSync(manifest, "utf8")) as { engines: { node: string } }).engines.node,
      pkg.engines.node,
      manifest,
    );
  }
  assert.equal(pkg.engines.node, "^22.12.0 || >=24.0.0");
});

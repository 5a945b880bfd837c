import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { PACKAGE_ROOT } from "../../src/paths.js";
import { skeletonFiles } from "../../src/cli/scaffold.js";

const declared = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as Record<
  string,
  Record<string, string>
>;
const rangeOf = (name: string) => declared["dependencies"]?.[name] ?? declared["devDependencies"]?.[name];

test("a new fw-b app lists only what its configuration uses, at the framework's declared ranges", () => {
  const files = skeletonFiles("shop", "/opt/fw-b/");
  const pkg = JSON.parse(files["package.json"]!) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  assert.deepEqual(Object.keys(pkg.dependencies).sort(), ["bcrypt", "better-sqlite3", "fw-b", "zod"]);
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
    else if (name !== "fw-b") assert.equal(range, rangeOf(name), `${name} at the range fw-b declares`);
  }
});

import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { isRestartingFile, isWatchedPath, watchSources } from "../src/watch.js";

/** Polls until `check` holds (the watcher reports asynchronously); fails naming what it waited for. */
async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail(`gave up waiting for ${what}`);
}

test("the watcher rule ignores build output, dependencies, data and .git, and restarts on sources only", () => {
  for (const path of [
    "build/assets/app.js",
    "node_modules/x/index.js",
    ".git/HEAD",
    "data/app.sqlite",
    "dist/index.js",
    "sub/node_modules/y.js",
    ".fwkit/mail/000001765000000000-0b4e7c1e-2f4b-4d55-9a40-6f2f7a1e9c3d.json",
  ]) {
    assert.equal(isRestartingFile(path), false, path);
  }
  assert.equal(isWatchedPath("build"), false);
  for (const path of ["lib/config.ts", "views/main.ts", "app.ts", "package.json", "run/scripts.mjs"])
    assert.equal(isRestartingFile(path), true, path);
  assert.equal(isRestartingFile("app.sqlite"), false);
  assert.equal(isRestartingFile("types/env.d.ts"), false);
});

test("a file saved atomically (temp file renamed over it) keeps being watched: both later changes are reported", async () => {
  const root = mkdtempSync(join(tmpdir(), "watch-rename-"));
  mkdirSync(join(root, "lib"));
  const config = join(root, "lib", "config.ts");
  writeFileSync(config, "export const config = { a: 1 };\n");
  const changes: string[] = [];
  const watcher = await watchSources(root, (file) => changes.push(file));
  try {
    await watcher.ready;
    // What `sed -i` and atomic-saving editors do.
    const temp = join(root, "lib", ".config.ts.tmp");
    writeFileSync(temp, "export const config = { a: 2 };\n");
    renameSync(temp, config);
    await until("the rename-over save", () => changes.includes(join("lib", "config.ts")));
    const seen = changes.length;
    // chokidar folds changes of one file less than 50 ms apart into one (the dev server's restart
    // reads the file after that anyway); a person's next save comes later than that.
    await new Promise((resolve) => setTimeout(resolve, 200));
    writeFileSync(config, "export const config = { a: 3 };\n");
    await until("the change after the rename-over save", () => changes.length > seen);
    assert.equal(changes.at(-1), join("lib", "config.ts"));
  } finally {
    await watcher.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test("writes to build/, node_modules/, data/ and .git/ are not reported, a source change after them is", async () => {
  const root = mkdtempSync(join(tmpdir(), "watch-ignored-"));
  for (const folder of ["build/assets", "node_modules/pkg", "data", ".git", "views"])
    mkdirSync(join(root, folder), { recursive: true });
  const changes: string[] = [];
  const watcher = await watchSources(root, (file) => changes.push(file));
  try {
    await watcher.ready;
    writeFileSync(join(root, "build", "assets", "app.js"), "bundle");
    writeFileSync(join(root, "build", "manifest.json"), "{}");
    writeFileSync(join(root, "node_modules", "pkg", "index.js"), "x");
    writeFileSync(join(root, "data", "app.sqlite"), "x");
    writeFileSync(join(root, "data", "seed.json"), "{}");
    writeFileSync(join(root, ".git", "index.js"), "x");
    writeFileSync(join(root, "views", "main.ts"), "export {};\n");
    await until("the source change", () => changes.length > 0);
    assert.deepEqual(changes, [join("views", "main.ts")]);
  } finally {
    await watcher.close();
    rmSync(root, { recursive: true, force: true });
  }
});

// Relative paths in config resolve against the app folder: a build, a release reached through the
// `current` link, and a build copied elsewhere (a container image) each find the right one, and
// loadConfig reads the app folder's .env and gives plugins `appDir`.
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { APP_FOLDER_MARK, appFolderOf, markAppFolder } from "../src/app-folder.js";
import { loadConfig } from "../src/config.js";

const base = mkdtempSync(join(tmpdir(), "app-folder-"));
after(() => rmSync(base, { recursive: true, force: true }));

function app(name: string): string {
  const root = join(base, name);
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, "package.json"), "{}\n");
  return root;
}

function build(root: string, out: string): string {
  const dir = join(root, out);
  mkdirSync(dir, { recursive: true });
  markAppFolder(dir, dir, root);
  return dir;
}

test("the sources are their own app folder", () => {
  const root = app("sources");
  assert.equal(appFolderOf(root), root);
});

test("build/ and releases/<id>/ (also through the current link) resolve to the app folder", () => {
  const root = app("built");
  assert.equal(appFolderOf(build(root, "build")), root);
  const release = build(root, join("releases", "20261127150000"));
  assert.equal(appFolderOf(release), root);
  symlinkSync(join("releases", "20261127150000"), join(root, "current"));
  assert.equal(appFolderOf(join(root, "current")), root);
});

test("a build copied elsewhere (the content of a container image) is its own app folder", () => {
  const root = app("copied");
  const dir = build(root, "build");
  const image = join(base, "image", "app");
  mkdirSync(join(base, "image"), { recursive: true });
  cpSync(dir, image, { recursive: true });
  writeFileSync(join(image, "package.json"), "{}\n");
  assert.equal(appFolderOf(image), image, "its mark points at a folder without package.json");
  assert.ok(APP_FOLDER_MARK.startsWith("."));
});

test("loadConfig in a build: appDir is the app folder, whose .env is read; root stays the build", async () => {
  const root = app("configured");
  const dir = build(root, "build");
  writeFileSync(join(root, ".env"), "MARKED_VARIABLE=from-the-app-folder\n");
  const environment: NodeJS.ProcessEnv = {};
  const config = await loadConfig(dir, {}, environment);
  assert.equal(config.root, dir);
  assert.equal(config.appDir, root);
  assert.equal(environment["MARKED_VARIABLE"], "from-the-app-folder");
  assert.equal((await loadConfig(root, {}, {})).appDir, root);
});

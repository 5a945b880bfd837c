// A build in an app folder that already has releases: `start` serves the `current` link ahead of
// build/, so the build command says so (and names the release command) instead of suggesting that
// migrate and start serve what was just built.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { buildCommand } from "../src/index.js";
import { locateApp } from "../src/production/start.js";

const root = mkdtempSync(join(tmpdir(), "fw-build-after-release-"));
after(() => rmSync(root, { recursive: true, force: true }));

async function build(): Promise<string> {
  const lines: string[] = [];
  const log = console.log;
  console.log = (line: unknown) => void lines.push(String(line));
  try {
    await (buildCommand(":build", "fixture", ":migrate", ":release").handler as (args: unknown) => Promise<void>)({
      root,
      out: "build",
      _: [],
      $0: "fixture",
    });
  } finally {
    console.log = log;
  }
  return lines.join("\n");
}

test("a build beside a current release says start serves that release, not build/", async () => {
  writeFileSync(join(root, "app.ts"), 'export const app = { name: "fixture" };\n');
  const plain = await build();
  assert.match(plain, /^Built 1 TypeScript file/);
  assert.doesNotMatch(plain, /current/);

  mkdirSync(join(root, "releases", "20261127153000"), { recursive: true });
  writeFileSync(join(root, "releases", "20261127153000", "app.js"), "export const app = {};\n");
  symlinkSync(join("releases", "20261127153000"), join(root, "current"));
  assert.equal(locateApp(root).appRoot, join(root, "current"));
  const beside = await build();
  assert.match(
    beside,
    /Note: this folder has releases: start serves current \(releases\/20261127153000\), not build\/\. Release this code with fixture :release \(build, migrate, switch current\), or remove the current link to serve build\/\./,
  );
});

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { SCAFFOLD_TYPESCRIPT, scaffoldDevDependencies } from "../src/scaffold.js";

test("a new app pins the TypeScript the frameworks are built and tested with, wherever the framework is installed", () => {
  const root = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
    devDependencies: Record<string, string>;
  };
  assert.equal(SCAFFOLD_TYPESCRIPT, root.devDependencies["typescript"]);
  // A framework folder that resolves no TypeScript (an installed fw-a): still the pinned range.
  const installed = mkdtempSync(join(tmpdir(), "installed-fw-"));
  try {
    writeFileSync(join(installed, "package.json"), JSON.stringify({ name: "fw-a", version: "0.1.0" }));
    assert.equal(scaffoldDevDependencies(installed)["typescript-dev"], `npm:typescript@${SCAFFOLD_TYPESCRIPT}`);
  } finally {
    rmSync(installed, { recursive: true, force: true });
  }
});

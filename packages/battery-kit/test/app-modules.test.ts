// The app's files as the host imports them: from a server bundle that registered them, whatever
// path names them (the `current` release link, the real folder), else from disk.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { importAppModule, registerBundledModules, servesBundledModules } from "../src/app-modules.js";

const root = mkdtempSync(join(tmpdir(), "fw-app-modules-"));
after(() => rmSync(root, { recursive: true, force: true }));

test("a registered file comes from the bundle, through any path to it; any other from disk", async () => {
  const release = join(root, "releases", "1");
  mkdirSync(join(release, "views"), { recursive: true });
  writeFileSync(join(release, "views", "main.js"), 'export const from = "disk";\n');
  writeFileSync(join(release, "views", "other.js"), 'export const from = "disk";\n');
  symlinkSync(release, join(root, "current"));

  assert.equal(servesBundledModules(), false);
  assert.equal((await importAppModule(join(release, "views", "main.js")))["from"], "disk");

  const bundled = { from: "bundle" };
  registerBundledModules(release, { "views/main.js": async () => bundled });
  assert.equal(servesBundledModules(), true);
  assert.equal(await importAppModule(join(root, "current", "views", "main.js")), bundled);
  assert.equal(await importAppModule(join(release, "views", "main.js")), bundled);
  assert.equal((await importAppModule(join(root, "current", "views", "other.js")))["from"], "disk");
  await assert.rejects(importAppModule(join(root, "current", "views", "missing.js")), { code: "ERR_MODULE_NOT_FOUND" });
});

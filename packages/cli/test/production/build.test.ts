// What a build copies: the app's files, never the local state beside them (the console's history,
// other REPL histories, editor and OS files), which would otherwise ship in build/ and releases/.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, test } from "node:test";
import { buildApp } from "../../src/production/build.js";

const root = mkdtempSync(join(tmpdir(), "fw-build-local-state-"));
after(() => rmSync(root, { recursive: true, force: true }));

test("a build leaves out the console's history and other local dotfiles, and keeps the app's own", async () => {
  writeFileSync(join(root, "app.ts"), 'export const app = { name: "fixture" };\n');
  mkdirSync(join(root, "templates"));
  writeFileSync(join(root, "templates", "index.html"), "<p>hi</p>\n");
  writeFileSync(join(root, "templates", ".DS_Store"), "x");
  const local = [
    ".console_history",
    ".node_repl_history",
    ".DS_Store",
    ".eslintcache",
    "tsconfig.tsbuildinfo",
    ".app.ts.swp",
  ];
  for (const name of local) writeFileSync(join(root, name), "secret = 1\n");
  writeFileSync(join(root, ".npmrc"), "engine-strict=true\n");
  await buildApp({ root });
  const build = join(root, "build");
  assert.ok(existsSync(join(build, "app.js")));
  assert.ok(existsSync(join(build, "templates", "index.html")));
  assert.ok(existsSync(join(build, ".npmrc")), "the install settings a production npm ci reads are kept");
  for (const name of local) assert.equal(existsSync(join(build, name)), false, `${name} is not copied`);
  assert.equal(existsSync(join(build, "templates", ".DS_Store")), false);
});

test("each compiled file's source map names the app's TypeScript file it came from", async () => {
  mkdirSync(join(root, "views"), { recursive: true });
  writeFileSync(join(root, "views", "main.ts"), "export const page = (): string => 'home';\n");
  await buildApp({ root, bundle: false });
  const compiled = readFileSync(join(root, "build", "views", "main.js"), "utf8");
  const map = JSON.parse(
    Buffer.from(/sourceMappingURL=data:application\/json;base64,(.+)$/m.exec(compiled)![1]!, "base64").toString(),
  ) as { sourceRoot?: string; sources: string[] };
  const named = resolve(join(root, "build", "views"), `${map.sourceRoot ?? ""}${map.sources[0]}`);
  assert.equal(named, join(root, "views", "main.ts"));
});

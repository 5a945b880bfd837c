import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { serve } from "../src/serve.js";

/** Polls until `check` holds; fails naming what it waited for and what the server printed. */
async function until(what: string, check: () => boolean, printed: readonly string[]): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail(`gave up waiting for ${what}; the dev server printed: ${printed.join(" | ")}`);
}

// An app whose every start is recorded in data/starts.log and which writes an asset bundle to
// build/ at start, as the assets battery does.
const APP = `import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { value } from "./lib/config.ts";
const root = import.meta.dirname;
export const app = {
  root,
  async create() {
    mkdirSync(join(root, "build", "assets"), { recursive: true });
    writeFileSync(join(root, "build", "assets", "app.js"), "// bundle " + Date.now());
    writeFileSync(join(root, "build", "manifest.json"), "{}");
    appendFileSync(join(root, "data", "starts.log"), value + "\\n");
    return { config: { env: "development" }, async listen() {}, async close() {} };
  },
};
`;

test("dev reload: a rename-over save and a change after it both restart; build output written at start does not", async () => {
  const root = mkdtempSync(join(tmpdir(), "serve-reload-"));
  for (const folder of ["lib", "data"]) mkdirSync(join(root, folder));
  const config = join(root, "lib", "config.ts");
  writeFileSync(config, `export const value = "first";\n`);
  writeFileSync(join(root, "app.ts"), APP);
  const log = join(root, "data", "starts.log");
  const starts = () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []);
  const printed: string[] = [];
  const handle = await serve({ root, port: 0, reload: true, print: (line) => printed.push(line) });
  try {
    await until("the first start", () => starts().length === 1, printed);
    await handle.watching;
    // Saved the way `sed -i` saves: a temporary file renamed over the original.
    writeFileSync(join(root, "lib", ".config.ts.sed"), `export const value = "second";\n`);
    renameSync(join(root, "lib", ".config.ts.sed"), config);
    await until("the restart after the rename-over save", () => starts().at(-1) === "second", printed);
    writeFileSync(config, `export const value = "third";\n`);
    await until("the restart after the next change", () => starts().at(-1) === "third", printed);
    assert.deepEqual(
      starts(),
      ["first", "second", "third"],
      "one start per change: the bundles written to build/ restarted nothing",
    );
    assert.equal(printed.filter((line) => line.includes("restarting")).length, 2, printed.join(" | "));
  } finally {
    await handle.stop();
    rmSync(root, { recursive: true, force: true });
  }
});

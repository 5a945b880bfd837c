// The development server refreshes the app's generated route declaration
// (types/routes.d.ts) at every restart, so typed urlFor follows the views as they are edited.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { serve } from "../src/serve.js";

const kernel = pathToFileURL(fileURLToPath(new URL("../../routing-kernel/src/index.ts", import.meta.url))).href;

/** Polls until `check` holds; fails naming what it waited for and what the server printed. */
async function until(what: string, check: () => boolean, printed: readonly string[]): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail(`gave up waiting for ${what}; the dev server printed: ${printed.join(" | ")}`);
}

// An app whose one view method is named in lib/config.ts: editing it changes the route table.
const APP = `import { buildRouteTable, defineConventions } from ${JSON.stringify(kernel)};
import { method } from "./lib/config.ts";
class View {}
const Blog = class Blog extends View {};
Object.defineProperty(Blog.prototype, method, { value(slug) { return slug; }, writable: true, configurable: true });
const root = import.meta.dirname;
export const app = {
  root,
  async create() {
    const table = buildRouteTable({ conventions: defineConventions({ baseClass: View }), modules: [{ name: "blog", exports: { Blog } }] });
    return { config: { env: "development" }, table, async listen() {}, async close() {} };
  },
};
`;

test("dev server: types/routes.d.ts follows the routes at each restart; an app without it gets none", async () => {
  const root = mkdtempSync(join(tmpdir(), "serve-route-types-"));
  for (const folder of ["lib", "types"]) mkdirSync(join(root, folder));
  const config = join(root, "lib", "config.ts");
  writeFileSync(config, `export const method = "first";\n`);
  writeFileSync(join(root, "app.ts"), APP);
  const declaration = join(root, "types", "routes.d.ts");
  // What `routes --types` leaves behind: the refresh keeps the framework module it names.
  writeFileSync(declaration, `import type { RouteParamValue } from "fw-x";\ndeclare module "fw-x" {\n}\n`);
  const text = () => (existsSync(declaration) ? readFileSync(declaration, "utf8") : "");
  const printed: string[] = [];
  const handle = await serve({ root, port: 0, reload: true, print: (line) => printed.push(line) });
  try {
    await until(
      "the declaration of the first start",
      () => text().includes(`"Blog.first": { slug: RouteParamValue };`),
      printed,
    );
    assert.match(text(), /declare module "fw-x"/);
    await handle.watching;
    writeFileSync(config, `export const method = "second";\n`);
    await until(
      "the declaration after the edit",
      () => text().includes(`"Blog.second": { slug: RouteParamValue };`),
      printed,
    );
    assert.doesNotMatch(text(), /Blog\.first/);
  } finally {
    await handle.stop();
  }
  // Without the file the dev server writes none.
  rmSync(declaration);
  const again = await serve({ root, port: 0, reload: false, print: (line) => printed.push(line) });
  try {
    assert.equal(existsSync(declaration), false);
  } finally {
    await again.stop();
    rmSync(root, { recursive: true, force: true });
  }
});

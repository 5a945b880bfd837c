#!/usr/bin/env node
// Build step of fw-b (`pnpm build`, after tsc): copies bootstrap-icons' icon font (the stylesheets,
// the woff/woff2 files and the license) into dist/vendor/bootstrap-icons/, which fw-b serves under
// /_fw-b/bootstrap-icons/ (src/assets.ts). bootstrap-icons is only a devDependency: an app's
// production install carries these 0.7 MB, not the package's 10 MB of per-icon SVGs and sprite.
// Usage: node scripts/copy-icon-font.mjs [target folder] (default dist/vendor/bootstrap-icons; tests give another).
import { copyFileSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const packageRoot = fileURLToPath(new URL("..", import.meta.url));
const source = dirname(createRequire(join(packageRoot, "package.json")).resolve("bootstrap-icons/package.json"));
const target = process.argv[2] ?? join(packageRoot, "dist", "vendor", "bootstrap-icons");

/** What the layouts need: the stylesheet (and its unminified form), the two font files, the license. */
const FILES = [
  ["font/bootstrap-icons.css", "bootstrap-icons.css"],
  ["font/bootstrap-icons.min.css", "bootstrap-icons.min.css"],
  ["font/fonts/bootstrap-icons.woff", "fonts/bootstrap-icons.woff"],
  ["font/fonts/bootstrap-icons.woff2", "fonts/bootstrap-icons.woff2"],
  ["LICENSE", "LICENSE"],
];

rmSync(target, { recursive: true, force: true });
mkdirSync(join(target, "fonts"), { recursive: true });
for (const [from, to] of FILES) {
  const path = join(source, from);
  if (!existsSync(path)) throw new Error(`copy-icon-font: ${path} is missing (bootstrap-icons changed its layout?)`);
  copyFileSync(path, join(target, to));
}

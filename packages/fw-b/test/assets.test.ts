import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { assetFolders } from "../src/assets.js";
import { PACKAGE_ROOT } from "../src/paths.js";

/** The files a stylesheet's `url(...)`s point at, relative to it (query strings dropped). */
function fontUrls(css: string): string[] {
  return [...css.matchAll(/url\("?([^")?]+)/g)].map((match) => match[1]!);
}

test("the icon font folder (the build's copy, else the bootstrap-icons devDependency) has the stylesheet and every font it links", () => {
  const folder = assetFolders()["bootstrap-icons"]!;
  const css = readFileSync(join(folder, "bootstrap-icons.min.css"), "utf8");
  const urls = fontUrls(css);
  assert.ok(
    urls.some((url) => url.endsWith(".woff2")),
    `woff2 linked: ${urls.join(", ")}`,
  );
  for (const url of urls) assert.ok(existsSync(join(folder, url)), `${url} exists in ${folder}`);
});

test("the build step copies only the icon font (stylesheets, woff/woff2) and bootstrap-icons' license, no per-icon SVG", () => {
  const target = join(mkdtempSync(join(tmpdir(), "fwb-icon-font-")), "bootstrap-icons");
  try {
    const result = spawnSync(process.execPath, [join(PACKAGE_ROOT, "scripts", "copy-icon-font.mjs"), target], {
      encoding: "utf8",
    });
    assert.equal(result.status, 0, result.stderr);
    const files = readdirSync(target, { recursive: true }).map(String).sort();
    assert.deepEqual(files, [
      "LICENSE",
      "bootstrap-icons.css",
      "bootstrap-icons.min.css",
      "fonts",
      "fonts/bootstrap-icons.woff",
      "fonts/bootstrap-icons.woff2",
    ]);
    assert.match(readFileSync(join(target, "LICENSE"), "utf8"), /MIT License/);
    for (const url of fontUrls(readFileSync(join(target, "bootstrap-icons.min.css"), "utf8")))
      assert.ok(existsSync(join(target, url)), `${url} copied`);
  } finally {
    rmSync(join(target, ".."), { recursive: true, force: true });
  }
});

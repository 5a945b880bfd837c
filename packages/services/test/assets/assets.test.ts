import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { rawGet, serve, type TestApp } from "../helpers.js";
import { prepareAssets } from "../../src/assets/assets.js";
import type { AssetManifest } from "../../src/assets/manifest.js";
import { serveAssets } from "../../src/assets/serve.js";

const CSS = "body { color: #123456; }\n";
const hash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 10);

/** Writes a small app tree into a temporary root. */
async function appTree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "services-assets-"));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return root;
}

describe("web assets", () => {
  let root: string;
  let manifest: AssetManifest;
  let app: TestApp;
  before(async () => {
    root = await appTree({
      "static/css/app.css": CSS,
      "static/img/logo.svg": "<svg/>",
      "static/LICENSE": "MIT",
      "static/.env": "SECRET=1",
      "package.json": "{}",
      "src/a.ts": 'const who: string = "first-source";\nconsole.log(who);\n',
      "src/b.ts": 'import { mark } from "./lib";\nconsole.log(mark("second-source"));\n',
      "src/lib.ts": "export const mark = (s: string) => `[${s}]`;\n",
      "src/styles/base.css": '@import "./reset.css";\n.base { margin: 0 }\n',
      "src/styles/reset.css": ".reset { padding: 0 }\n",
      "src/styles/extra.css": ".extra { color: red }\n",
    });
    manifest = await prepareAssets({
      root,
      config: {
        bundles: {
          "app.js": ["src/a.ts", "src/b.ts"],
          "css/site.css": ["src/styles/base.css", "src/styles/extra.css"],
        },
      },
    });
    app = await serve(serveAssets(manifest));
  });
  after(async () => {
    await app.close();
    await rm(root, { recursive: true, force: true });
  });

  test("assetUrl gives the content-hashed URL of a static file", () => {
    assert.equal(manifest.assetUrl("css/app.css"), `/static/css/app.${hash(CSS)}.css`);
    assert.equal(manifest.assetUrl("/css/app.css"), `/static/css/app.${hash(CSS)}.css`);
    assert.equal(manifest.assetUrl("LICENSE"), `/static/LICENSE.${hash("MIT")}`);
    assert.throws(() => manifest.assetUrl("css/typo.css"), { code: "E_ASSET_NOT_FOUND", message: /css\/typo\.css/ });
    assert.throws(() => manifest.assetUrl(".env"), { code: "E_ASSET_NOT_FOUND" });
  });

  test("hashed URLs are cached for a year, plain ones briefly; ETags give 304", async () => {
    const hashed = await fetch(app.base + manifest.assetUrl("css/app.css"));
    assert.equal(hashed.status, 200);
    assert.equal(await hashed.text(), CSS);
    assert.equal(hashed.headers.get("content-type"), "text/css; charset=utf-8");
    assert.equal(hashed.headers.get("cache-control"), "public, max-age=31536000, immutable");
    const plain = await fetch(`${app.base}/static/css/app.css`);
    assert.equal(await plain.text(), CSS);
    assert.equal(plain.headers.get("cache-control"), "public, max-age=60");
    const etag = plain.headers.get("etag") ?? "";
    // fetch() adds "Cache-Control: no-cache" to conditional requests, so this one goes raw.
    assert.equal((await rawGet(app.base, "/static/css/app.css", { "If-None-Match": etag })).status, 304);
    const head = await fetch(`${app.base}/static/img/logo.svg`, { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("content-length"), "6");
    assert.equal(head.headers.get("content-type"), "image/svg+xml");
  });

  test("traversal, encoded traversal, NUL and bad encoding get 400; hidden and unknown files 404; never 500", async () => {
    for (const path of [
      "/static/../package.json",
      "/static/%2e%2e/package.json",
      "/static/css/%2E%2E/%2E%2E/package.json",
      "/static/..%2fpackage.json",
      "/static/css%5c..%5c..%5cpackage.json",
      "/static/css/app.css%00.png",
      "/static/%ZZ",
      "/static/./css/app.css",
    ]) {
      const response = await rawGet(app.base, path);
      assert.equal(response.status, 400, `${path}: ${response.body}`);
    }
    for (const path of [
      "/static/.env",
      "/static/css/nope.css",
      "/static/css/app.0123456789.css",
      "/static/",
      "/static/css",
    ]) {
      const response = await rawGet(app.base, path);
      assert.equal(response.status, 404, `${path}: ${response.body}`);
    }
    assert.equal((await fetch(`${app.base}/static/css/app.css`, { method: "POST" })).status, 404);
  });

  test("declared JS and CSS bundles are built with esbuild, minified, hashed and served", async () => {
    const js = await fetch(app.base + manifest.assetUrl("app.js"));
    assert.equal(js.status, 200);
    assert.equal(js.headers.get("content-type"), "text/javascript; charset=utf-8");
    const code = await js.text();
    assert.ok(code.indexOf("first-source") < code.indexOf("second-source"), "sources in declared order");
    assert.doesNotMatch(code, /: string/, "TypeScript is compiled");
    assert.match(code, /^\(\(\)=>\{/, "one minified IIFE");
    const css = await (await fetch(app.base + manifest.assetUrl("css/site.css"))).text();
    assert.match(css, /\.reset\{padding:0\}\.base\{margin:0\}\.extra\{color:red\}/);
    assert.match(manifest.assetUrl("app.js"), /^\/static\/app\.[0-9a-f]{10}\.js$/);
  });

  test("bundle declarations that cannot be built stop the start with a coded error naming the problem", async () => {
    const cases: Array<[Record<string, readonly string[]>, RegExp]> = [
      [{ "app.js": ["src/missing.ts"] }, /"app\.js".*src\/missing\.ts.*does not exist/],
      [{ "app.js": ["src/broken.ts"] }, /"app\.js".*broken\.ts:1/],
      [{ "app.js": ["../outside.ts"] }, /outside the app/],
      [{ "app.exe": ["src/a.ts"] }, /\.js" or "\.css"/],
      [{ "../app.js": ["src/a.ts"] }, /relative path/],
      [{ "app.js": [] }, /list of source files/],
      [{ "css/app.css": ["src/a.css"] }, /both in static and in the bundles/],
    ];
    const tree = await appTree({
      "src/broken.ts": "const = ;\n",
      "src/a.ts": "1;\n",
      "src/a.css": "a{}\n",
      "static/css/app.css": "x",
    });
    try {
      for (const [bundles, message] of cases) {
        await assert.rejects(
          prepareAssets({ root: tree, config: { bundles } }),
          { code: "E_ASSET_BUNDLE_FAILED", message },
          JSON.stringify(bundles),
        );
      }
      for (const outDir of ["static", ".", "..", "static/build"]) {
        await assert.rejects(
          prepareAssets({ root: tree, config: { outDir, bundles: { "x.js": ["src/a.ts"] } } }),
          { code: "E_SERVICES_CONFIG_INVALID" },
          outDir,
        );
      }
      assert.equal(await readFile(join(tree, "static/css/app.css"), "utf8"), "x", "static/ untouched");
    } finally {
      await rm(tree, { recursive: true, force: true });
    }
  });

  test("in development a changed file gets a new hash without a restart", async () => {
    const tree = await appTree({ "static/site.css": "a{}" });
    try {
      const dev = await prepareAssets({ root: tree, development: true });
      const before = dev.assetUrl("site.css");
      await writeFile(join(tree, "static/site.css"), "a{color:blue}");
      const later = new Date(Date.now() + 5000);
      await utimes(join(tree, "static/site.css"), later, later);
      assert.notEqual(dev.assetUrl("site.css"), before);
      assert.equal(dev.assetUrl("site.css"), `/static/site.${hash("a{color:blue}")}.css`);
      await writeFile(join(tree, "static/new.css"), "b{}");
      assert.equal(dev.assetUrl("new.css"), `/static/new.${hash("b{}")}.css`);
    } finally {
      await rm(tree, { recursive: true, force: true });
    }
  });
});

// Compiled templates kept on disk between starts: a later start (a new store on the same cache)
// renders from the entry, and an entry is left as soon as a file its compilation looked at changes,
// appears or goes away.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { PACKAGE_ROOT, PACKAGE_TEMPLATES } from "../../src/paths.js";
import { frameworkTemplateCache, TemplateCache } from "@fwkit/koa-host/plugin";
import { TemplateStore } from "../../src/render/templates.js";

const dir = mkdtempSync(join(tmpdir(), "fwb-template-cache-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function write(path: string, content: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), content);
}

/** A store as a new start makes it: nothing compiled in memory, the given cache folder. */
const start = (app: string, cacheDir: string, packageDir = PACKAGE_TEMPLATES, salt = "versions") =>
  new TemplateStore({
    appDir: join(dir, app),
    packageDir,
    development: false,
    cache: new TemplateCache(join(dir, cacheDir), salt),
  });

/** The template `name` of `app` rendered by a new start on `cacheDir`. */
const page = (app: string, cacheDir: string, name: string, locals: Record<string, unknown>) =>
  start(app, cacheDir).find(name)!.render(locals);

/** Rewrites every entry of a cache so its template renders `marker`: what a render from the entry shows. */
function markEntries(cacheDir: string, marker: string): number {
  const files = readdirSync(join(dir, cacheDir)).filter((file) => file.endsWith(".json"));
  for (const file of files) {
    const path = join(dir, cacheDir, file);
    const entry = JSON.parse(readFileSync(path, "utf8")) as { body: string };
    entry.body = `function template(locals) { return ${JSON.stringify(marker)}; }`;
    writeFileSync(path, JSON.stringify(entry));
  }
  return files.length;
}

describe("compiled templates kept between starts", () => {
  test("a later start renders from the entry the first one wrote, for .pug and .html pages", () => {
    write("one/a/page.pug", "p= text");
    write("one/a/plain.html", "<p>#{text}</p>");
    const first = start("one", "cache-one");
    assert.equal(first.find("a/page")!.render({ text: "<b>" }), "<p>&lt;b&gt;</p>");
    assert.equal(first.find("a/plain")!.render({ text: "<b>" }), "<p>&lt;b&gt;</p>");
    assert.equal(markEntries("cache-one", "from the cache"), 2);
    const later = start("one", "cache-one");
    assert.equal(later.find("a/page")!.render({ text: "x" }), "from the cache");
    assert.equal(later.find("a/plain")!.render({ text: "x" }), "from the cache");
  });

  test("an edited template, or an edited layout it extends, compiles again", () => {
    write("two/layouts/base.pug", "div.base\n  block content");
    write("two/b/page.pug", "extends /layouts/base\nblock content\n  p= text");
    assert.equal(page("two", "cache-two", "b/page", { text: "x" }), '<div class="base"><p>x</p></div>');
    markEntries("cache-two", "stale");
    write("two/layouts/base.pug", "section.base\n  block content");
    assert.equal(page("two", "cache-two", "b/page", { text: "x" }), '<section class="base"><p>x</p></section>');
    markEntries("cache-two", "stale");
    write("two/b/page.pug", "extends /layouts/base\nblock content\n  em= text");
    assert.equal(page("two", "cache-two", "b/page", { text: "x" }), '<section class="base"><em>x</em></section>');
  });

  test("an app layout added over fw-b's shipped one compiles again; removing an include's file does too", () => {
    write("three/c/page.pug", "extends /layouts/default\nblock content\n  p= text");
    assert.match(
      page("three", "cache-three", "c/page", { text: "x", title: "T", nav: [] }),
      /<main class="fwb-main"><p>x<\/p><\/main>/,
    );
    markEntries("cache-three", "stale");
    write("three/layouts/default.pug", "div.own\n  block content");
    assert.equal(page("three", "cache-three", "c/page", { text: "x" }), '<div class="own"><p>x</p></div>');

    write("three/d/page.pug", "include /parts/note\np= text");
    write("three/parts/note.pug", "p.note note");
    assert.equal(page("three", "cache-three", "d/page", { text: "x" }), '<p class="note">note</p><p>x</p>');
    markEntries("cache-three", "stale");
    rmSync(join(dir, "three/parts/note.pug"));
    assert.throws(() => page("three", "cache-three", "d/page", { text: "x" }), {
      code: "E_TEMPLATE_FAILED",
    });
  });

  test("a cache folder that cannot be made leaves the page as it renders without one", () => {
    write("four/e/page.pug", "p= text");
    // A folder under a file cannot be made, whoever runs the test.
    write("not-a-folder", "");
    const store = start("four", join("not-a-folder", "cache"));
    assert.equal(store.find("e/page")!.render({ text: "x" }), "<p>x</p>");
    assert.equal(store.find("e/page")!.render({ text: "y" }), "<p>y</p>");
  });

  test("one of fw-b's own templates keeps an entry per app: an app's layout is used in that app only", () => {
    write("pkg/p/page.pug", "extends /layouts/base\nblock content\n  p= text");
    write("pkg/layouts/base.pug", "div.shipped\n  block content");
    write("plain-app/.keep", "");
    write("own-app/layouts/base.pug", "div.own\n  block content");
    const inApp = (app: string) => start(app, "cache-shared", join(dir, "pkg"));
    assert.equal(inApp("plain-app").find("p/page")!.render({ text: "x" }), '<div class="shipped"><p>x</p></div>');
    assert.equal(inApp("own-app").find("p/page")!.render({ text: "x" }), '<div class="own"><p>x</p></div>');
    assert.equal(inApp("plain-app").find("p/page")!.render({ text: "x" }), '<div class="shipped"><p>x</p></div>');
  });

  test("an app's cache is in fw-b's node_modules/.cache, wherever NODE_COMPILE_CACHE points", () => {
    const before = process.env["NODE_COMPILE_CACHE"];
    process.env["NODE_COMPILE_CACHE"] = join(tmpdir(), "shared-compile-cache");
    try {
      assert.equal(
        frameworkTemplateCache(PACKAGE_ROOT, "fw-b-templates", ["pug", "@fwkit/services"], "production")?.folder,
        join(PACKAGE_ROOT, "node_modules", ".cache", "fw-b-templates"),
      );
    } finally {
      if (before === undefined) delete process.env["NODE_COMPILE_CACHE"];
      else process.env["NODE_COMPILE_CACHE"] = before;
    }
  });

  test("a cache under another salt (other versions of fw-b, Pug or the Markdown renderer) is not read", () => {
    write("five/f/page.pug", "p= text");
    page("five", "cache-five", "f/page", { text: "x" });
    markEntries("cache-five", "stale");
    const other = start("five", "cache-five", PACKAGE_TEMPLATES, "other versions");
    assert.equal(other.find("f/page")!.render({ text: "x" }), "<p>x</p>");
  });
});

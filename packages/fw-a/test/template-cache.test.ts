// Compiled Nunjucks templates kept on disk between starts: a later start (a new environment on the
// same cache) renders from the entries, an edited file compiles again, and what Nunjucks reports
// of a broken template is the same with the cache as without.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { frameworkTemplateCache, TemplateCache } from "@fwkit/koa-host/plugin";
import { createTemplateEnvironment } from "../src/templates.js";

const dir = mkdtempSync(join(tmpdir(), "fwa-template-cache-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function write(path: string, content: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), content);
}

/** An environment as a new production start makes it: nothing compiled in memory, the given cache folder. */
const start = (app: string, cacheDir: string, options: { autoescape?: boolean; salt?: string } = {}) =>
  createTemplateEnvironment({
    dir: join(dir, app),
    development: false,
    ...(options.autoescape === undefined ? {} : { autoescape: options.autoescape }),
    cache: new TemplateCache(join(dir, cacheDir), options.salt ?? "versions"),
  });

const entries = (cacheDir: string) => {
  try {
    return readdirSync(join(dir, cacheDir)).filter((file) => file.endsWith(".json"));
  } catch {
    return [];
  }
};

/** Rewrites every entry of a cache so its template renders `marker`: what a render from the entry shows. */
function markEntries(cacheDir: string, marker: string): number {
  const files = entries(cacheDir);
  for (const file of files) {
    const path = join(dir, cacheDir, file);
    const entry = JSON.parse(readFileSync(path, "utf8")) as { body: string };
    entry.body = `function root(env, context, frame, runtime, cb) { cb(null, ${JSON.stringify(marker)}); }\nreturn { root: root };`;
    writeFileSync(path, JSON.stringify(entry));
  }
  return files.length;
}

describe("compiled Nunjucks templates kept between starts", () => {
  test("a later start renders from the entries the first one wrote, .html and .md alike", () => {
    write("one/a/page.html", "<p>{{ text }}</p>");
    write("one/a/notes.md", "# Notes\n\n{{ text }}");
    const first = start("one", "cache-one");
    assert.equal(first.render("a/page.html", { text: "<b>" }), "<p>&lt;b&gt;</p>");
    assert.equal(first.render("a/notes.md", { text: "x" }).trim(), "<h1>Notes</h1>\n<p>x</p>");
    assert.equal(markEntries("cache-one", "from the cache"), 2);
    const later = start("one", "cache-one");
    assert.equal(later.render("a/page.html", { text: "x" }), "from the cache");
    assert.equal(later.render("a/notes.md", { text: "x" }), "from the cache");
  });

  test("a page and the layout it extends are entries of their own: editing either shows at the next start", () => {
    write("two/layouts/base.html", "<main>{% block body %}{% endblock %}</main>");
    write("two/b/page.html", '{% extends "layouts/base.html" %}{% block body %}<p>{{ text }}</p>{% endblock %}');
    assert.equal(start("two", "cache-two").render("b/page.html", { text: "x" }), "<main><p>x</p></main>");
    assert.equal(entries("cache-two").length, 2);
    assert.equal(start("two", "cache-two").render("b/page.html", { text: "x" }), "<main><p>x</p></main>");
    write("two/layouts/base.html", "<section>{% block body %}{% endblock %}</section>");
    assert.equal(start("two", "cache-two").render("b/page.html", { text: "x" }), "<section><p>x</p></section>");
    write("two/b/page.html", '{% extends "layouts/base.html" %}{% block body %}<em>{{ text }}</em>{% endblock %}');
    assert.equal(start("two", "cache-two").render("b/page.html", { text: "x" }), "<section><em>x</em></section>");
  });

  test("a template Nunjucks cannot compile fails as it does without the cache, and is not kept", () => {
    write("three/c/broken.html", "<p>{% if %}</p>");
    const failure = (env: ReturnType<typeof createTemplateEnvironment>) => {
      try {
        env.render("c/broken.html", {});
      } catch (error) {
        return (error as Error).message;
      }
      return "rendered";
    };
    const without = failure(createTemplateEnvironment({ dir: join(dir, "three"), development: false }));
    assert.match(without, /broken\.html/);
    assert.equal(failure(start("three", "cache-three")), without);
    assert.equal(entries("cache-three").length, 0);
  });

  test("the plain-text environment of mails escapes nothing, from the same cache folder", () => {
    write("four/mail/note.txt", "Hello {{ name }}");
    assert.equal(
      start("four", "cache-four", { autoescape: false }).render("mail/note.txt", { name: "<b>" }),
      "Hello <b>",
    );
    assert.equal(start("four", "cache-four").render("mail/note.txt", { name: "<b>" }), "Hello &lt;b&gt;");
    assert.equal(
      start("four", "cache-four", { autoescape: false }).render("mail/note.txt", { name: "<b>" }),
      "Hello <b>",
    );
  });

  test("a cache under another salt (another version of fw-a or Nunjucks) is not read", () => {
    write("five/f/page.html", "<p>{{ text }}</p>");
    start("five", "cache-five").render("f/page.html", { text: "x" });
    markEntries("cache-five", "stale");
    assert.equal(
      start("five", "cache-five", { salt: "other versions" }).render("f/page.html", { text: "x" }),
      "<p>x</p>",
    );
  });

  test("development compiles every render and keeps nothing", () => {
    write("six/g/page.html", "<p>{{ text }}</p>");
    const env = createTemplateEnvironment({
      dir: join(dir, "six"),
      development: true,
      cache: new TemplateCache(join(dir, "cache-six"), "versions"),
    });
    assert.equal(env.render("g/page.html", { text: "x" }), "<p>x</p>");
    assert.equal(entries("cache-six").length, 0);
  });

  test("a production app's cache is in fw-a's own node_modules/.cache", () => {
    const root = fileURLToPath(new URL("..", import.meta.url));
    assert.equal(
      frameworkTemplateCache(root, "fw-a-templates", ["nunjucks"], "production")?.folder,
      join(root, "node_modules", ".cache", "fw-a-templates"),
    );
  });
});

import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { createTemplateEnvironment } from "../src/templates.js";

const dir = mkdtempSync(join(tmpdir(), "fwa-templates-"));
after(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, "blog"), { recursive: true });
writeFileSync(join(dir, "blog", "post.html"), "<article>{{ post.body | markdown }}</article>");
writeFileSync(
  join(dir, "blog", "about.md"),
  '# About {{ name }}\n\n<div class="hero">Our *own* HTML</div>\n\n[home](/)',
);
const env = createTemplateEnvironment({ dir, development: false });

describe("fw-a templates and Markdown", () => {
  test("the markdown filter renders database text inert (<img onerror>, javascript: links)", () => {
    const html = env.render("blog/post.html", {
      post: { body: "Hi <img src=x onerror=alert(1)> [a](javascript:alert(2)) [w](&#106;avascript:alert(5))" },
    });
    assert.doesNotMatch(html, /<img|href="(javascript|&#106;)/i);
    assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.match(html, /<a>a<\/a> <a>w<\/a>/);
  });

  test("the markdown filter keeps safe Markdown: emphasis, http and relative links", () => {
    const html = env.render("blog/post.html", { post: { body: "*em* [s](https://x.example) [r](/r)" } });
    assert.match(html, /<em>em<\/em> <a href="https:\/\/x.example">s<\/a> <a href="\/r">r<\/a>/);
  });

  test("a .md template is the app's own text: its HTML is kept and Nunjucks still fills it", () => {
    const html = env.render("blog/about.md", { name: "<us>" });
    assert.match(html, /<h1>About &lt;us&gt;<\/h1>/);
    assert.match(html, /<div class="hero">Our \*own\* HTML<\/div>/);
    assert.match(html, /<a href="\/">home<\/a>/);
  });
});

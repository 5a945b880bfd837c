import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { PACKAGE_TEMPLATES } from "../../src/paths.js";
import { resolveInclude, TemplateStore } from "../../src/render/templates.js";

const dir = mkdtempSync(join(tmpdir(), "fwb-templates-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function write(path: string, content: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), content);
}

const store = (development: boolean, appDir = join(dir, "app")) =>
  new TemplateStore({ appDir, packageDir: PACKAGE_TEMPLATES, development });

describe("TemplateStore", () => {
  test(".pug first, then .html, then .md; none: undefined and the expected path", () => {
    write("app/a/both.pug", "p pug");
    write("app/a/both.html", "<p>html</p>");
    write("app/a/html.html", "<p>#{x} !{y}</p>");
    write("app/a/md.md", "# Hi");
    const templates = store(false);
    assert.equal(templates.find("a/both")!.render({}), "<p>pug</p>");
    assert.equal(templates.find("a/html")!.render({ x: "<i>", y: "<i>" }), "<p>&lt;i&gt; <i></p>");
    assert.match(templates.find("a/md")!.render({ nav: [] }), /<main class="fwb-main"><h1>Hi<\/h1>\n<\/main>/);
    assert.equal(templates.find("a/none"), undefined);
    assert.equal(templates.expectedPath("a/none"), join(dir, "app", "a", "none.pug"));
  });

  test("extends /layouts/default uses fw-b's layout unless the app has one", () => {
    write("app/b/page.pug", "extends /layouts/default\nblock content\n  p.body= text");
    write("other/b/page.pug", "extends /layouts/default\nblock content\n  p.body= text");
    write("other/layouts/default.pug", "div.mine\n  block content");
    const packaged = store(false).find("b/page")!.render({ text: "x", title: "T", nav: [] });
    assert.match(packaged, /<title>T<\/title>/);
    assert.match(packaged, /<main class="fwb-main"><p class="body">x<\/p><\/main>/);
    const own = store(false, join(dir, "other")).find("b/page")!.render({ text: "x" });
    assert.equal(own, '<div class="mine"><p class="body">x</p></div>');
  });

  test("a Markdown page is titled by its first heading and framed by layouts/markdown.pug when present", () => {
    write("md/app/p/page.md", "# The Title\n\ntext");
    assert.match(
      store(false, join(dir, "md", "app"))
        .find("p/page")!
        .render({ nav: [] }),
      /<title>The Title<\/title>/,
    );
    assert.match(
      store(false, join(dir, "md", "app"))
        .find("p/page")!
        .render({ nav: [], title: "Given" }),
      /<title>Given<\/title>/,
    );
    write("md/app/layouts/markdown.pug", "article.md\n  block content");
    assert.equal(
      store(false, join(dir, "md", "app"))
        .find("p/page")!
        .render({}),
      '<article class="md"><h1>The Title</h1>\n<p>text</p>\n</article>',
    );
  });

  test("relative includes, include:markdown and the :markdown filter", () => {
    write("app/c/part.pug", "span part");
    write("app/c/text.md", "**md**");
    write("app/c/page.pug", "include part\ninclude:markdown text.md\n:markdown\n  *filtered*");
    const html = store(false).find("c/page")!.render({});
    assert.match(html, /<span>part<\/span>/);
    assert.match(html, /<strong>md<\/strong>/);
    assert.match(html, /<em>filtered<\/em>/);
  });

  test("outside development a template is compiled once; in development it is re-read", () => {
    write("app/d/live.pug", "p one");
    const cached = store(false).find("d/live")!;
    const live = store(true).find("d/live")!;
    assert.equal(cached.render({}), "<p>one</p>");
    assert.equal(live.render({}), "<p>one</p>");
    write("app/d/live.pug", "p two");
    assert.equal(cached.render({}), "<p>one</p>");
    assert.equal(live.render({}), "<p>two</p>");
  });

  test("syntax and runtime errors are E_TEMPLATE_FAILED naming the file", () => {
    write("app/e/bad.pug", "div(\n");
    write("app/e/throws.pug", "p= thing.missing.deep");
    const templates = store(false);
    assert.throws(
      () => templates.find("e/bad")!.render({}),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, "E_TEMPLATE_FAILED");
        assert.match(error.message, /bad\.pug/);
        return true;
      },
    );
    assert.throws(() => templates.find("e/throws")!.render({}), { code: "E_TEMPLATE_FAILED" });
  });

  test("resolveInclude: adds .pug, prefers the app's folder", () => {
    assert.equal(resolveInclude("part", "/x/y/page.pug", "/app", "/pkg"), "/x/y/part.pug");
    assert.equal(resolveInclude("text.md", "/x/page.pug", "/app", "/pkg"), "/x/text.md");
    assert.equal(
      resolveInclude("/layouts/default", "/x/p.pug", join(dir, "nothing"), PACKAGE_TEMPLATES),
      join(PACKAGE_TEMPLATES, "layouts/default.pug"),
    );
    assert.equal(resolveInclude("/nope", "/x/p.pug", "/app", "/pkg"), "/app/nope.pug");
  });
});

import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { markdown } from "../../src/index.js";
import { PACKAGE_TEMPLATES } from "../../src/paths.js";
import { TemplateStore } from "../../src/render/templates.js";

const dir = mkdtempSync(join(tmpdir(), "fwb-markdown-"));
after(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, "c"), { recursive: true });
writeFileSync(
  join(dir, "c", "post.pug"),
  'div.body!= markdown(body)\n:markdown\n  <aside class="own">template *text*</aside>',
);
const store = new TemplateStore({ appDir: dir, packageDir: PACKAGE_TEMPLATES, development: false });
const render = (body: string) => store.find("c/post")!.render({ markdown, body });

describe("fw-b's markdown local and :markdown filter", () => {
  test("entity-encoded javascript: links no longer survive (&#106;avascript:, jav&#x09;ascript:)", () => {
    const html = render("[w](&#106;avascript:alert(5)) [v](jav&#x09;ascript:alert(1))");
    assert.match(html, /<div class="body"><p><a>w<\/a> <a>v<\/a><\/p>/);
  });

  test("raw HTML in user text is shown as text, safe links are kept", () => {
    const html = render("**bold** <script>alert(1)</script> [ok](https://x.example)");
    assert.match(
      html,
      /<strong>bold<\/strong> &lt;script&gt;alert\(1\)&lt;\/script&gt; <a href="https:\/\/x.example">ok<\/a>/,
    );
  });

  test("the template's own :markdown block is trusted and keeps its HTML", () => {
    assert.match(render(""), /<aside class="own">template \*text\*<\/aside>/);
  });
});

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { markdown, markdownFilter } from "./markdown.js";

describe("markdown", () => {
  test("converts Markdown to HTML (GitHub-flavoured)", () => {
    assert.equal(markdown("# Title\n\n*em* and `code`").trim(), "<h1>Title</h1>\n<p><em>em</em> and <code>code</code></p>");
    assert.match(markdown("| a |\n|---|\n| 1 |"), /<table>/);
  });

  test("user text is safe by default: raw HTML shown as text, script links neutralised", () => {
    const html = markdown('<script>alert(1)</script>\n\nhi <b onclick="x()">there</b> [click](javascript:alert(1))');
    assert.doesNotMatch(html, /<script>|<b onclick/);
    assert.match(html, /&#60;script&#62;/);
    assert.doesNotMatch(html, /javascript:/);
    assert.match(html, /<a href="#">click<\/a>/);
  });

  test("trusted text and the :markdown filter keep HTML", () => {
    assert.match(markdown("<div class=x>raw</div>", { trusted: true }), /<div class=x>raw<\/div>/);
    assert.match(markdownFilter("<em>ok</em> **b**"), /<em>ok<\/em> <strong>b<\/strong>/);
  });

  test("null and undefined render as nothing; other values as text", () => {
    assert.equal(markdown(undefined), "");
    assert.equal(markdown(null), "");
    assert.equal(markdown(42).trim(), "<p>42</p>");
  });
});

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Browser } from "playwright-core";
import { XSS_VECTORS } from "@fwkit/test-servers";
import { launchChromium, liveMarkupInFragments } from "@fwkit/test-servers/browser";
import { renderMarkdown, renderTrustedMarkdown } from "../../src/markdown/render.js";

describe("renderMarkdown", () => {
  test("converts GitHub-flavoured Markdown: headings, emphasis, code, tables, task lists, links", () => {
    assert.equal(
      renderMarkdown("# Title\n\n*em* and `code`").trim(),
      "<h1>Title</h1>\n<p><em>em</em> and <code>code</code></p>",
    );
    assert.match(renderMarkdown("| a |\n|:-:|\n| 1 |"), /<table>[\s\S]*<th align="center">a<\/th>/);
    assert.match(renderMarkdown("```js\nx\n```"), /<pre><code class="language-js">x/);
    assert.match(renderMarkdown("- [x] done"), /<li><input type="checkbox" disabled checked \/> done<\/li>/);
    assert.match(renderMarkdown("~~gone~~ 2^10^"), /<del>gone<\/del>/);
  });

  test("keeps http, https, mailto and relative links and images", () => {
    const html = renderMarkdown(
      '[a](https://x.example/p?q=1) [b](http://x.example) [m](mailto:a@x.example) [r](/rel) [f](#top) [q](?page=2) ![i](/img.png "t")',
    );
    for (const href of [
      "https://x.example/p?q=1",
      "http://x.example",
      "mailto:a@x.example",
      "/rel",
      "#top",
      "?page=2",
    ]) {
      assert.match(html, new RegExp(`href="${href.replace(/[?.]/g, "\\$&")}"`));
    }
    assert.match(html, /<img src="\/img.png" alt="i" title="t" \/>/);
  });

  test("fw-a's filter let <img onerror> and javascript: links through; user text is now inert", () => {
    const html = renderMarkdown("<img src=x onerror=alert(1)> [a](javascript:alert(2))");
    assert.doesNotMatch(html, /<img|javascript:/i);
    assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/, "raw HTML is shown as the text the user typed");
    assert.match(html, /<a>a<\/a>/, "the link text stays, the script URL goes");
  });

  test("fw-b's check ran before entities were decoded; encoded javascript: schemes are dropped", () => {
    for (const source of [
      "[w](&#106;avascript:alert(5))",
      "[v](jav&#x09;ascript:alert(1))",
      "[c](javascript&colon;alert(1))",
    ]) {
      assert.doesNotMatch(renderMarkdown(source), /href=/, source);
    }
  });

  test("tags, attributes and schemes outside the allow-list are removed, whatever their spelling", () => {
    for (const vector of XSS_VECTORS) {
      const html = renderMarkdown(vector);
      assert.doesNotMatch(
        html,
        /<(script|iframe|object|embed|form|button|style|link|meta|base|svg|math|body|details|input(?! type="checkbox" disabled))\b/i,
        vector,
      );
      // Attribute values are blanked first: text such as `alt="a onerror=x"` is data, not an attribute.
      assert.doesNotMatch(html.replace(/"[^"]*"/g, '""'), /<[^>]+\s(on\w+|style|srcdoc|formaction|action)=/i, vector);
      assert.doesNotMatch(html, /<[^>]*\s(href|src)="\s*(javascript|vbscript|data):/i, vector);
    }
  });

  test("trusted text (the app's own templates) keeps its HTML and every scheme", () => {
    assert.match(renderMarkdown("<div class=x>raw</div>", { trusted: true }), /<div class=x>raw<\/div>/);
    assert.match(renderTrustedMarkdown("<em>ok</em> **b**"), /<em>ok<\/em> <strong>b<\/strong>/);
    assert.match(
      renderTrustedMarkdown("{{ title }} and {% if x %}y{% endif %}"),
      /\{\{ title \}\} and \{% if x %\}y\{% endif %\}/,
    );
  });

  test("null and undefined render as nothing; other values as their text", () => {
    assert.equal(renderMarkdown(undefined), "");
    assert.equal(renderMarkdown(null), "");
    assert.equal(renderMarkdown(42).trim(), "<p>42</p>");
  });
});

describe("renderMarkdown in Chromium: the OWASP filter-evasion vectors run no script", () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test("every vector, rendered as user text, is inert once the browser has parsed it", async () => {
    const live = await liveMarkupInFragments(
      browser,
      XSS_VECTORS.map((v) => renderMarkdown(v)),
      XSS_VECTORS,
    );
    assert.deepEqual(live, []);
  });

  test("the check itself sees live markup: the same vectors rendered as trusted text are caught", async () => {
    const live = await liveMarkupInFragments(browser, [
      "<img src=x onerror=alert(1)>",
      renderTrustedMarkdown("[a](&#106;avascript:alert(5))"),
    ]);
    assert.ok(
      live.some((line) => line.includes("script ran: alert(1)")),
      live.join("\n"),
    );
    assert.ok(
      live.some((line) => line.includes("resolves to scheme javascript:")),
      live.join("\n"),
    );
  });
});

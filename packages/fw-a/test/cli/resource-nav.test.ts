// gen:resource's edits of an app's files: the nav link goes above the new app layout's marker once
// (a second run, or a layout without the marker, changes nothing and the latter says why), and a
// stylesheet without the resource pages' rules gets them once. The whole generator in a new app,
// and the pages in Chromium, are in test/resource-generator.test.ts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { pageFiles } from "../../src/cli/skeleton-pages.js";
import { addNavLink, addResourceStyles, NAV_MARKER } from "../../src/cli/resource-nav.js";
import { RESOURCE_CSS_MARKER } from "../../src/cli/resource-styles.js";

const content = (result: ReturnType<ReturnType<typeof addNavLink>>) => {
  assert.ok("content" in result, JSON.stringify(result));
  return result.content;
};

test("the new app's layout has the nav marker, and the link goes above it, once, with its indentation", () => {
  const layout = pageFiles("demo")["templates/layouts/base.html"]!;
  assert.ok(layout.includes(NAV_MARKER), "the scaffold's layout has the marker");
  const once = content(addNavLink("Todos", "Todos")(layout));
  assert.match(once, /\n {8}<a href="\{\{ url_for\('Todos\.index'\) \}\}">Todos<\/a>\n {8}\{# fw-a gen:resource/);
  assert.equal(content(addNavLink("Todos", "Todos")(once)), once, "a second run adds nothing");
  const twice = content(addNavLink("BlogPosts", "Blog posts")(once));
  assert.ok(twice.indexOf("Todos.index") < twice.indexOf("BlogPosts.index"), "links are added in order");
  assert.ok(twice.indexOf("BlogPosts.index") < twice.indexOf(NAV_MARKER), "above the marker");
});

test("a layout without the marker is left as it is, with the reason", () => {
  const result = addNavLink("Todos", "Todos")("<nav><a href='/'>Home</a></nav>\n");
  assert.ok("skipped" in result);
  assert.match(result.skipped, /its nav has no line \{# fw-a gen:resource .*; add a link to Todos there yourself/);
});

test("the new app's stylesheet has the resource pages' rules; an older one gets them once", () => {
  const css = pageFiles("demo")["static/css/app.css"]!;
  for (const rule of [
    ".flash {",
    ".flash-success",
    ".error {",
    ".table {",
    "button.button",
    ".button-danger",
    ".field",
  ])
    assert.ok(css.includes(rule), `the scaffold's app.css has ${rule}`);
  assert.equal(content(addResourceStyles(css)), css, "nothing added twice");
  const older = "body { margin: 0; }";
  const added = content(addResourceStyles(older));
  assert.ok(added.startsWith(`${older}\n\n${RESOURCE_CSS_MARKER}`));
  assert.equal(content(addResourceStyles(added)), added);
});

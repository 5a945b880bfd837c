// fw-b's own part of dict-first responses over HTTP: templates (.pug, .html, .md) in the layout,
// Markdown, @renderXml on a method of a JSON class. What any view's result becomes (strings, JSON,
// replies, redirects) is the shared conformance case of the result table.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { startApp, type StartedApp } from "./helpers.js";

describe("fw-b responses", () => {
  let app: StartedApp;
  before(async () => {
    app = await startApp();
  });
  after(() => app.close());

  const get = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(app.url + path, { redirect: "manual", ...init });
    return {
      status: res.status,
      type: res.headers.get("content-type") ?? "",
      headers: res.headers,
      text: await res.text(),
    };
  };

  test("a dict renders templates/<module>/<Class>/<method>.pug inside the default layout, escaped", async () => {
    const res = await get("/");
    assert.equal(res.status, 200);
    assert.equal(res.type, "text/html; charset=utf-8");
    assert.match(res.text, /^<!DOCTYPE html>/);
    assert.match(res.text, /<title>Welcome<\/title>/);
    assert.match(res.text, /<p class="greeting">Hello &lt;world&gt;<\/p>/);
    // url_for from the host's locals
    assert.match(res.text, /<a id="about" href="\/about-us">About<\/a>/);
  });

  test("a view module in a sub-folder uses templates/<folder>/<module>/...", async () => {
    assert.equal((await get("/users")).text, "<p>Users: 2</p>");
  });

  test("the .html file is used when there is no .pug, with escaped interpolation", async () => {
    const res = await get("/plain");
    assert.equal(res.type, "text/html; charset=utf-8");
    assert.match(res.text, /<p class="name">Ada &amp; Bob<\/p>/);
  });

  test("returning nothing renders a Markdown template inside the layout", async () => {
    const res = await get("/notes");
    assert.match(res.text, /<h1>Release notes<\/h1>/);
    assert.match(res.text, /<em>emphasis<\/em> and a <a href="\/store">link<\/a>/);
    assert.match(res.text, /<nav class="fwb-nav"/);
  });

  test("the :markdown filter and the markdown() local (safe for user text)", async () => {
    const res = await get("/rich");
    assert.match(res.text, /<h2>From the filter<\/h2>/);
    assert.match(res.text, /<div class="body"><p><strong>bold<\/strong> &lt;script&gt;/);
    assert.doesNotMatch(res.text, /<script>alert/);
  });

  test("@renderXml gives application/xml that parses, on a method of a JSON class too", async () => {
    const res = await get("/api/products/feed");
    assert.equal(res.type, "application/xml; charset=utf-8");
    assert.equal(XMLValidator.validate(res.text), true);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@", parseTagValue: false }).parse(
      res.text,
    ) as {
      response: Record<string, unknown>;
    };
    assert.deepEqual(parsed.response, {
      when: "2024-01-02T03:04:05.000Z",
      ok: "true",
      none: "",
      items: { item: ["1", "2"] },
      key: { "#text": "a<b", "@name": "bad key" },
    });
    const feed = await get("/feed");
    assert.match(
      feed.text,
      /<response><title>Feed &amp; news<\/title><entries><item><id>1<\/id><\/item><item><id>2<\/id><\/item><\/entries><\/response>$/,
    );
  });

  test("HEAD on a template page sends headers and no body", async () => {
    const res = await get("/", { method: "HEAD" });
    assert.equal(res.status, 200);
    assert.equal(res.type, "text/html; charset=utf-8");
    assert.equal(res.text, "");
  });
});

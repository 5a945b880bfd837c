// fw-a's own part of responses over its fixture app: Nunjucks templates in the layout, template
// paths, Markdown, its error pages and error template. What any view's result becomes (strings,
// JSON, replies, redirects), HEAD and 405, and bad input are the shared conformance cases.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import type { Host } from "@fwkit/koa-host";
import { inject } from "@fwkit/koa-host/testing";
import { createApp } from "../src/index.js";

const root = fileURLToPath(new URL("./fixture-app", import.meta.url));

describe("fw-a responses", () => {
  let app: Host;
  before(async () => {
    app = await createApp({ root, config: { env: "test", logRequests: false } });
  });
  after(() => app.close());

  test("a plain object renders templates/<module>/<Class>/<method>.html with the layout", async () => {
    const res = await inject(app, "/");
    assert.equal(res.statusCode, 200);
    assert.match(res.headers["content-type"] as string, /^text\/html/);
    assert.match(res.body, /<title>Home<\/title>/);
    assert.match(res.body, /<li>a<\/li><li>b<\/li>/);
    assert.match(res.body, /href="\/blog\/comments\/42\/"/, "url_for builds fw-a paths");
  });

  test("method names are kept as written in template paths, output is escaped", async () => {
    const res = await inject(app, "/about-us/");
    assert.match(res.body, /About &lt;b&gt;us&lt;\/b&gt;/);
    const team = await inject(app, "/about-team/");
    assert.equal(team.statusCode, 200);
    assert.match(team.body, /The team/);
  });

  test("Markdown: .md templates, .md includes and the markdown filter", async () => {
    assert.match((await inject(app, "/docs/")).body, /<h1>Docs<\/h1>[\s\S]*<em>markdown<\/em>/);
    assert.match((await inject(app, "/blog/")).body, /<strong>Welcome<\/strong>/);
    assert.match((await inject(app, "/blog/show/3/")).body, /<h1>Heading<\/h1>/);
  });

  test("HTTPError.Unauthorized() gives 401 with the built-in HTML page", async () => {
    const res = await inject(app, "/secret/");
    assert.equal(res.statusCode, 401);
    assert.match(res.body, /401 Unauthorized/);
    const gone = await inject(app, "/gone/");
    assert.equal(gone.statusCode, 410);
    assert.match(gone.body, /This page left\./);
  });

  test("the app's error template is used with the right status", async () => {
    const res = await inject(app, "/no/such/page/");
    assert.equal(res.statusCode, 404);
    assert.match(res.body, /Custom 404/);
  });

  test("JSON views and JSON-only clients get JSON errors", async () => {
    const res = await inject(app, "/api/fail/");
    assert.equal(res.statusCode, 403);
    assert.deepEqual(JSON.parse(res.body), { error: { status: 403, message: "Not yours" } });
    const accept = await inject(app, { url: "/secret/", headers: { accept: "application/json" } });
    assert.deepEqual(JSON.parse(accept.body), { error: { status: 401, message: "Unauthorized" } });
  });

  test("other exceptions are 500 without details outside development; a missing template is a 500", async () => {
    const crash = await inject(app, "/crash/");
    assert.equal(crash.statusCode, 500);
    assert.doesNotMatch(crash.body, /internal detail/);
    const missing = await inject(app, "/notemplate/");
    assert.equal(missing.statusCode, 500);
  });
});

describe("fw-a in development", () => {
  test("the stack of an unexpected error is shown only in development", async () => {
    // The development database in memory: the fixture app is read-only (no data/app.db written into it).
    const dev = await createApp({
      root,
      config: { env: "development", dbUrl: "sqlite::memory:", logRequests: false, logLevel: "silent" },
    });
    const res = await inject(dev, "/crash/");
    assert.equal(res.statusCode, 500);
    assert.match(res.body, /internal detail/);
    await dev.close();
  });

  test("production refuses to start without a secret key", async () => {
    await assert.rejects(createApp({ root, config: { env: "production" } }), { code: "E_MISSING_SECRET_KEY" });
  });
});

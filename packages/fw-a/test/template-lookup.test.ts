import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { inject } from "@fwkit/koa-host/testing";
import { createApp, FwA } from "../src/index.js";

// Templates by convention are looked up once per route at start-up (from folder listings); in
// development a template missing then is looked for again on each request.
class Index extends FwA {
  index() {
    return { who: "index" };
  }
  notes() {
    return { who: "notes" };
  }
  later() {
    return { who: "later" };
  }
}
class Blog extends FwA {
  show() {
    return { who: "show" };
  }
}

const roots: string[] = [];
function appRoot(): string {
  const root = mkdtempSync(join(tmpdir(), "fw-a-templates-"));
  roots.push(root);
  const file = (name: string, text: string) => {
    mkdirSync(join(root, "templates", name, ".."), { recursive: true });
    writeFileSync(join(root, "templates", name), text);
  };
  file("main/Index/index.html", "html {{ who }}");
  file("main/Index/notes.md", "# md {{ who }}");
  file("main/Blog/show.html", "blog {{ who }}");
  return root;
}
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const modules = [{ name: "main", exports: { Index, Blog } }];

describe("fw-a view templates found at start-up", () => {
  test("production: .html, else .md, per module and class; one added later is not used", async () => {
    const root = appRoot();
    const app = await createApp({ root, modules, config: { env: "test", logRequests: false, logLevel: "silent" } });
    try {
      assert.equal((await inject(app, "/")).body, "html index");
      assert.match((await inject(app, "/notes/")).body, /<h1>md notes<\/h1>/);
      assert.equal((await inject(app, "/blog/show/")).body, "blog show");
      assert.equal((await inject(app, "/later/")).statusCode, 500);
      writeFileSync(join(root, "templates/main/Index/later.html"), "added {{ who }}");
      assert.equal((await inject(app, "/later/")).statusCode, 500, "decided at start-up outside development");
    } finally {
      await app.close();
    }
  });

  test("development: a template added after start-up is found on the next request", async () => {
    const root = appRoot();
    const app = await createApp({
      root,
      modules,
      config: { env: "development", logRequests: false, logLevel: "silent" },
    });
    try {
      assert.equal((await inject(app, "/later/")).statusCode, 500);
      writeFileSync(join(root, "templates/main/Index/later.html"), "added {{ who }}");
      const res = await inject(app, "/later/");
      assert.equal(res.statusCode, 200);
      assert.equal(res.body, "added later");
    } finally {
      await app.close();
    }
  });
});

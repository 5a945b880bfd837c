// The template cache both frameworks keep compiled templates in: an entry holds while the files its
// compilation read are unchanged and the files it found absent stay absent; a damaged or foreign
// entry is no entry; a folder that cannot be written is no cache; past its limit the oldest go.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { frameworkTemplateCache, TemplateCache } from "../src/template-cache.js";

const dir = mkdtempSync(join(tmpdir(), "koa-host-template-cache-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("TemplateCache", () => {
  test("an entry holds while what its compilation read is unchanged and what it found absent stays so", () => {
    const cache = new TemplateCache(join(dir, "inputs"), "salt");
    const layout = join(dir, "layout.html");
    const override = join(dir, "override.html");
    writeFileSync(layout, "one");
    cache.store("page", "source", "compiled", { read: [layout], absent: [override] });
    assert.equal(cache.load("page", "source"), "compiled");
    assert.equal(cache.load("page", "other source"), undefined);
    assert.equal(cache.load("other page", "source"), undefined);
    assert.equal(new TemplateCache(join(dir, "inputs"), "other salt").load("page", "source"), undefined);
    writeFileSync(override, "");
    assert.equal(cache.load("page", "source"), undefined, "a file found absent appeared");
    rmSync(override);
    assert.equal(cache.load("page", "source"), "compiled");
    writeFileSync(layout, "two");
    assert.equal(cache.load("page", "source"), undefined, "a file read changed");
    rmSync(layout);
    assert.equal(cache.load("page", "source"), undefined, "a file read went");
  });

  test("a damaged entry is no entry", () => {
    const cache = new TemplateCache(join(dir, "damaged"), "salt");
    cache.store("page", "source", "compiled");
    const [file] = readdirSync(join(dir, "damaged"));
    for (const text of ["{", "null", '{"body":1,"read":[],"absent":[]}', '{"body":"x"}']) {
      writeFileSync(join(dir, "damaged", file!), text);
      assert.equal(cache.load("page", "source"), undefined, text);
    }
  });

  test("a folder that cannot be made means no cache, and no failure", () => {
    writeFileSync(join(dir, "a-file"), "");
    const cache = new TemplateCache(join(dir, "a-file", "cache"), "salt");
    cache.store("page", "source", "compiled");
    assert.equal(cache.load("page", "source"), undefined);
  });

  test("past its limit the folder keeps the entries written last", async () => {
    const cache = new TemplateCache(join(dir, "limit"), "salt", 10);
    for (let i = 0; i < 12; i++) {
      cache.store(`page ${i}`, "source", `compiled ${i}`);
      // Distinct write times, so "oldest" is well defined on any file system.
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    assert.ok(readdirSync(join(dir, "limit")).length <= 10);
    assert.equal(cache.load("page 0", "source"), undefined, "the first written went");
    assert.equal(cache.load("page 11", "source"), "compiled 11", "the last written stays");
  });

  test("a framework's cache is its own node_modules/.cache/<name>, salted with its and its engine's versions", () => {
    const root = fileURLToPath(new URL("..", import.meta.url));
    const cache = frameworkTemplateCache(root, "some-templates", ["koa"], "production");
    assert.equal(cache?.folder, join(root, "node_modules", ".cache", "some-templates"));
    cache!.store("page", "source", "compiled");
    try {
      assert.equal(
        frameworkTemplateCache(root, "some-templates", ["koa"], "production")!.load("page", "source"),
        "compiled",
      );
      assert.equal(
        frameworkTemplateCache(root, "some-templates", ["pino"], "production")!.load("page", "source"),
        undefined,
      );
      assert.equal(frameworkTemplateCache(root, "some-templates", ["no-such-package-here"], "production"), undefined);
      for (const env of ["development", "test", "staging"])
        assert.equal(frameworkTemplateCache(root, "some-templates", ["koa"], env), undefined, env);
    } finally {
      rmSync(cache!.folder, { recursive: true, force: true });
    }
  });
});

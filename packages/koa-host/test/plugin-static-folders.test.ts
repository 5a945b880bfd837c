import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { HostPlugin } from "../src/plugin-api.js";
import { startHost, TestView } from "./fixtures.js";

class Index extends TestView {
  index() {
    return "home";
  }
}

describe("a plugin's static folders", () => {
  let url = "";
  let close: () => Promise<void> = async () => {};
  const dir = mkdtempSync(join(tmpdir(), "koa-host-plugin-static-"));

  before(async () => {
    mkdirSync(join(dir, "outer", "inner"), { recursive: true });
    writeFileSync(join(dir, "outer", "theme.css"), "body{}");
    writeFileSync(join(dir, "outer", "inner", "only-outer.txt"), "from the outer folder");
    mkdirSync(join(dir, "icons"));
    writeFileSync(join(dir, "icons", "font.css"), ".icon{}");
    const plugin: HostPlugin = {
      name: "assets",
      // The nested prefix is listed after the outer one: the longer prefix must still win.
      phases: {
        static: () => [
          { prefix: "/_assets", dir: join(dir, "outer") },
          { prefix: "/_assets/inner", dir: join(dir, "icons") },
        ],
      },
    };
    const started = await startHost({ Index }, { plugins: [plugin] });
    url = started.url;
    close = () => started.host.close();
  });
  after(async () => {
    await close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("files under a plugin's prefix are served with the app's caching headers", async () => {
    const res = await fetch(`${url}/_assets/theme.css`);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "body{}");
    assert.match(res.headers.get("cache-control") ?? "", /max-age/);
  });

  test("the longest matching prefix serves the request", async () => {
    const res = await fetch(`${url}/_assets/inner/font.css`);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), ".icon{}");
  });

  test("a missing file is a 404, a traversal a 4xx, and views and the app's static folder still answer", async () => {
    assert.equal((await fetch(`${url}/_assets/nope.css`)).status, 404);
    const traversal = await fetch(`${url}/_assets/..%2f..%2fpackage.json`);
    // A traversal is the documented 400 (E_STATIC_PATH_INVALID), not koa-send's 403.
    assert.equal(traversal.status, 400);
    assert.equal(await (await fetch(`${url}/`)).text(), "home");
    assert.equal((await fetch(`${url}/static/site.css`)).status, 200);
  });

  test("other verbs under the prefix are not served files", async () => {
    const res = await fetch(`${url}/_assets/theme.css`, { method: "POST" });
    assert.equal(res.status, 404);
  });
});

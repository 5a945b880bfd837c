import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { rawGet, serve, type TestApp } from "../helpers.js";
import { SignalRegistry } from "../../src/signals/signal.js";
import type { LocalDriver } from "../../src/storage/drivers/local.js";
import { serveStorage } from "../../src/storage/serve.js";
import { createStorage, type Storage } from "../../src/storage/storage.js";

describe("serveStorage (local files over HTTP)", () => {
  let directory: string;
  let storage: Storage;
  let app: TestApp;
  before(async () => {
    directory = await mkdtemp(join(tmpdir(), "services-serve-"));
    storage = createStorage({
      url: `file:${directory}`,
      root: "/unused",
      secret: "serve-secret",
      signals: new SignalRegistry({ error: () => {}, warn: () => {} }),
    });
    await storage.put("docs/page.html", "<script>alert(1)</script>");
    app = await serve(serveStorage(storage));
  });
  after(async () => {
    await app.close();
    await rm(directory, { recursive: true, force: true });
  });

  test("traversal, encoded traversal, NUL, backslash and bad encoding get 400, never 500", async () => {
    for (const path of [
      "/uploads/../package.json",
      "/uploads/..%2f..%2fetc%2fpasswd",
      "/uploads/%2e%2e/%2e%2e/etc/passwd",
      "/uploads/docs/%2e%2e/%2e%2e/x",
      "/uploads/a%00b.txt",
      "/uploads/a%5c..%5cb",
      "/uploads/%ZZ",
      "/uploads/.hidden",
      "/uploads/docs//page.html",
    ]) {
      const response = await rawGet(app.base, path);
      assert.equal(response.status, 400, `${path}: ${response.body}`);
    }
  });

  test("a served file cannot run scripts in the app's origin", async () => {
    const signed = await storage.signedUrl("docs/page.html");
    const response = await fetch(app.base + signed);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/html; charset=utf-8");
    assert.equal(response.headers.get("x-content-type-options"), "nosniff");
    assert.match(response.headers.get("content-security-policy") ?? "", /^sandbox/);
    assert.equal(response.headers.get("cache-control"), "private, max-age=300");
    const head = await fetch(app.base + signed, { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), "");
  });

  test("unsigned, expired or foreign-key links get 403; a signed link to a missing file gets 404", async () => {
    const driver = storage.driver as LocalDriver;
    assert.equal((await fetch(`${app.base}/uploads/docs/page.html`)).status, 403);
    const old = driver.signer.sign("docs/page.html", 1, Date.now() - 60_000);
    assert.equal(
      (await fetch(`${app.base}/uploads/docs/page.html?expires=${old.expires}&signature=${old.signature}`)).status,
      403,
    );
    const other = driver.signer.sign("docs/other.html", 60);
    assert.equal(
      (await fetch(`${app.base}/uploads/docs/page.html?expires=${other.expires}&signature=${other.signature}`)).status,
      403,
    );
    assert.equal((await fetch(`${app.base}/uploads/docs/page.html?expires=soon&signature=x`)).status, 403);
    assert.equal((await fetch(app.base + (await storage.signedUrl("docs/missing.html")))).status, 404);
    // A key below a file names nothing: 404, not a storage failure.
    assert.equal((await fetch(app.base + (await storage.signedUrl("docs/page.html/below")))).status, 404);
  });

  test("other verbs and paths pass through", async () => {
    assert.equal((await fetch(`${app.base}/uploads/docs/page.html`, { method: "POST" })).status, 404);
    assert.equal((await fetch(`${app.base}/elsewhere`)).status, 404);
  });
});

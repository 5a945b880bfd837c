// Error responses and bad input: app error templates, JSON errors, 500 logging, 4xx for bad input.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startApp, type StartedApp } from "./helpers.js";

describe("fw-b errors", () => {
  let app: StartedApp;
  before(async () => {
    app = await startApp();
  });
  after(() => app.close());

  const get = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(app.url + path, init);
    return { status: res.status, type: res.headers.get("content-type") ?? "", text: await res.text() };
  };

  test("unknown path: 404 from the app's templates/error/404.pug, with the right status", async () => {
    const res = await get("/no/such/page");
    assert.equal(res.status, 404);
    assert.equal(res.type, "text/html; charset=utf-8");
    assert.match(res.text, /<h1 class="not-found">Lost: Nothing is served at \/no\/such\/page\.<\/h1>/);
    // The status named as the translations name it (fw-b ships English words for it), as the contrib heading does.
    assert.match(res.text, /<title>404 Page not found<\/title>/);
  });

  test("other statuses use templates/error.pug with status and message", async () => {
    const teapot = await get("/teapot");
    assert.equal(teapot.status, 418);
    assert.match(teapot.text, /<h1 class="error">418<\/h1><p class="message">No coffee here<\/p>/);
    const secret = await get("/secret");
    assert.equal(secret.status, 401);
    assert.match(secret.text, /<h1 class="error">401<\/h1>/);
  });

  test("JSON and XML views and JSON-only clients get {error: {status, message}}", async () => {
    const json = await get("/api/products/9");
    assert.equal(json.status, 404);
    assert.equal(json.type, "application/json; charset=utf-8");
    assert.deepEqual(JSON.parse(json.text), { error: { status: 404, message: "No product 9" } });
    const xml = await get("/feed/broken");
    assert.equal(xml.status, 410);
    assert.deepEqual(JSON.parse(xml.text), { error: { status: 410, message: "The feed moved" } });
    const client = await get("/teapot", { headers: { accept: "application/json" } });
    assert.deepEqual(JSON.parse(client.text), { error: { status: 418, message: "No coffee here" } });
  });

  test("an exception is a 500 without details, logged with its stack", async () => {
    const res = await get("/boom");
    assert.equal(res.status, 500);
    assert.doesNotMatch(res.text, /kaput/);
    const logged = app.errors.find((e) => e.message.includes("/boom"));
    assert.ok(logged, "the 500 is logged");
    assert.match(String((logged.err as Error).stack), /kaput/);
  });

  test("a missing template is a 500 whose log names the expected path", async () => {
    const res = await get("/missing");
    assert.equal(res.status, 500);
    assert.doesNotMatch(res.text, /missing\.pug/);
    const logged = app.errors.find((e) => e.message.includes("/missing"));
    assert.ok(logged, "the error is logged");
    assert.equal((logged.err as { code?: string }).code, "E_TEMPLATE_NOT_FOUND");
    assert.match((logged.err as Error).message, /fixture-app\/templates\/main\/Index\/missing\.pug/);
  });

  test("bad input: malformed JSON 400, too large 413, undecodable URL 400, bad override 400", async () => {
    const headers = { "content-type": "application/json" };
    const bad = await get("/document/echo", { method: "POST", headers, body: "{nope" });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /not valid JSON/);
    const big = await get("/document/echo", {
      method: "POST",
      headers,
      body: JSON.stringify({ a: "x".repeat(2_000_000) }),
    });
    assert.equal(big.status, 413);
    const ok = await get("/document/echo", { method: "POST", headers, body: '{"a":1}' });
    assert.equal(ok.text, '{"a":1}');
    assert.equal((await get("/document/%E0%A4%A")).status, 400);
    const override = await get("/document/1", { method: "POST", headers: { "x-http-method-override": "TRACE" } });
    assert.equal(override.status, 400);
  });

  test("bad input to a JSON view is answered in JSON", async () => {
    const res = await get("/api/products/create", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "[1,",
    });
    assert.equal(res.status, 400);
    const body = JSON.parse(res.text) as { error: { status: number; message: string } };
    assert.equal(body.error.status, 400);
    assert.match(body.error.message, /not valid JSON/);
  });
});

describe("fw-b errors without app error templates", () => {
  test("the built-in page, with the status; the stack only in development", async () => {
    const { mkdtempSync, rmSync, mkdirSync, writeFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const { FwB, HTTPError } = await import("../src/index.js");
    const root = mkdtempSync(join(tmpdir(), "fwb-errors-"));
    mkdirSync(join(root, "templates"));
    writeFileSync(join(root, "templates", "unused.pug"), "p");
    class Index extends FwB {
      gone() {
        throw HTTPError.Gone();
      }
      boom() {
        throw new Error("dev detail");
      }
    }
    for (const env of ["test", "development"]) {
      const app = await startApp({ root, modules: [{ name: "main", exports: { Index } }], config: { env } });
      try {
        const gone = await fetch(`${app.url}/gone`);
        assert.equal(gone.status, 410);
        assert.match(await gone.text(), /<h1>410 Gone<\/h1>/);
        const boom = await (await fetch(`${app.url}/boom`)).text();
        if (env === "development") assert.match(boom, /dev detail/);
        else assert.doesNotMatch(boom, /dev detail/);
      } finally {
        await app.close();
      }
    }
    rmSync(root, { recursive: true, force: true });
  });
});

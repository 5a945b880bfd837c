// Issue 15.6: errors raised before the view (body parse and size, CSRF, 405, 404 under a JSON
// class) answer in the route's kind (`@renderJson` / `@renderXml`: JSON), as the view's errors do.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startApp, type StartedApp } from "./helpers.js";

describe("fw-b: errors before the view use the route's response kind (batteries on)", () => {
  let app: StartedApp;
  before(async () => {
    app = await startApp({
      config: { batteries: { security: true, data: true, services: true }, bodyLimits: { json: "1kb", form: "1kb", text: "1kb", fileSize: 1024 } },
    });
  });
  after(() => app.close());

  const send = (path: string, init: RequestInit = {}) =>
    fetch(`${app.url}${path}`, { ...init, headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8", ...(init.headers as Record<string, string>) } });
  const postJson = (path: string, body: string) => send(path, { method: "POST", headers: { "content-type": "application/json" }, body });
  const jsonError = async (res: Response, status: number, message?: RegExp) => {
    assert.equal(res.status, status);
    assert.match(res.headers.get("content-type") ?? "", /application\/json/);
    const body = (await res.json()) as { error: { status: number; message: string } };
    assert.equal(body.error.status, status);
    if (message) assert.match(body.error.message, message);
  };

  test("malformed JSON to a @renderJson route: 400 in JSON naming the problem", async () => jsonError(await postJson("/api/products/create", "{bad"), 400, /JSON/));
  test("an oversized body to a @renderJson route: 413 in JSON", async () => jsonError(await postJson("/api/products/create", JSON.stringify({ a: "x".repeat(4096) })), 413, /limit/));
  test("a missing CSRF token on a @renderJson route: 403 in JSON", async () => jsonError(await postJson("/api/products/create", "{}"), 403));
  test("a wrong verb on a @renderJson route: 405 in JSON", async () => jsonError(await send("/api/products", { method: "DELETE" }), 405));
  test("an unknown path under a @renderJson class: 404 in JSON", async () => jsonError(await send("/api/products/1/more"), 404));
  test("the same body error on an HTML route is an HTML page", async () => {
    const res = await postJson("/document/echo", "{bad");
    assert.equal(res.status, 400);
    assert.match(res.headers.get("content-type") ?? "", /text\/html/);
  });
});

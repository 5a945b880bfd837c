// Issue 15.6: errors raised before the view (body parse and size, CSRF, 405, 404 under a JSON
// class) answer in the route's kind (`@response.json`: JSON), as the view's own errors do.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { createApp, type Host } from "../src/index.js";
import { listenForTest } from "../src/testing/index.js";

const root = fileURLToPath(new URL("./secure-app", import.meta.url));

describe("fw-a: errors before the view use the route's response kind (batteries on)", () => {
  let app: Host;
  let url = "";
  before(async () => {
    app = await createApp({
      root,
      auth: { loadUser: () => undefined },
      config: { env: "test", logRequests: false, dbUrl: "sqlite::memory:", bodyLimits: { json: "1kb", form: "1kb", text: "1kb", fileSize: 1024 } },
    });
    url = (await listenForTest(app)).url;
  });
  after(() => app.close());

  const send = (path: string, init: RequestInit = {}) =>
    fetch(`${url}${path}`, { ...init, headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8", ...(init.headers as Record<string, string>) } });
  const postJson = (path: string, body: string) => send(path, { method: "POST", headers: { "content-type": "application/json" }, body });
  const jsonError = async (res: Response, status: number, message?: RegExp) => {
    assert.equal(res.status, status);
    assert.match(res.headers.get("content-type") ?? "", /application\/json/);
    const body = (await res.json()) as { error: { status: number; message: string } };
    assert.equal(body.error.status, status);
    if (message) assert.match(body.error.message, message);
  };

  test("malformed JSON to a @response.json route: 400 in JSON naming the problem", async () => jsonError(await postJson("/api/create/", "{bad"), 400, /JSON/));
  test("an oversized body to a @response.json route: 413 in JSON", async () => jsonError(await postJson("/api/create/", JSON.stringify({ a: "x".repeat(4096) })), 413, /limit/));
  test("a missing CSRF token on a @response.json route: 403 in JSON", async () => jsonError(await postJson("/api/create/", "{}"), 403));
  test("a wrong verb on a @response.json route: 405 in JSON", async () => jsonError(await send("/api/create/", { method: "DELETE" }), 405));
  test("an unknown path under a @response.json class: 404 in JSON", async () => jsonError(await send("/api/nothing/"), 404));
  test("the same body error on an HTML route is an HTML page", async () => {
    const res = await postJson("/save/", "{bad");
    assert.equal(res.status, 400);
    assert.match(res.headers.get("content-type") ?? "", /text\/html/);
  });
});

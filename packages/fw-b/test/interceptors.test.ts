// beforeRequest / afterRequest through koa-host, with fw-b's responder.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startApp, type StartedApp } from "./helpers.js";

describe("fw-b interceptors", () => {
  let app: StartedApp;
  before(async () => {
    app = await startApp();
  });
  after(() => app.close());

  test("beforeRequest returning undefined lets the method run", async () => {
    assert.equal(await (await fetch(`${app.url}/guarded/show/5`)).text(), "show 5");
  });

  test("beforeRequest returning a value short-circuits: it is the response, with the method's name and arguments", async () => {
    const res = await fetch(`${app.url}/guarded/show/5`, { headers: { "x-block": "yes" } });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "blocked before show(5)");
  });

  test("afterRequest receives the response and returns the one sent", async () => {
    assert.equal(await (await fetch(`${app.url}/guarded/wrapped`)).text(), "after: inner");
  });

  test("afterRequest also sees a short-circuited response", async () => {
    const res = await fetch(`${app.url}/guarded/wrapped`, { headers: { "x-block": "yes" } });
    assert.equal(await res.text(), "after: blocked before wrapped()");
  });

  test("an async beforeRequest may throw an HTTPError; a JSON view answers it in JSON", async () => {
    const denied = await fetch(`${app.url}/json-guarded`);
    assert.equal(denied.status, 403);
    assert.deepEqual(await denied.json(), { error: { status: 403, message: "Token required for index" } });
    const allowed = await fetch(`${app.url}/json-guarded`, { headers: { "x-token": "ok" } });
    assert.deepEqual(await allowed.json(), { ok: true });
  });
});

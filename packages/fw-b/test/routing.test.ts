// The seed's routing examples over real HTTP on the fixture app (test/fixture-app).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startApp, type StartedApp } from "./helpers.js";

describe("fw-b routing (seed examples)", () => {
  let app: StartedApp;
  before(async () => {
    app = await startApp();
  });
  after(() => app.close());

  const call = async (method: string, path: string) => {
    const res = await fetch(app.url + path, { method, redirect: "manual" });
    return { status: res.status, text: await res.text(), allow: res.headers.get("allow") };
  };

  test("Account.info is served at /account/info; Index at /; hello_world style names are kebab-case", async () => {
    assert.equal((await call("GET", "/account/info")).status, 200);
    assert.equal((await call("GET", "/about-us")).text, "About us");
    assert.equal((await call("GET", "/")).status, 200);
  });

  test("Document.get(id) is /document/:id and answers GET (and HEAD) only", async () => {
    assert.equal((await call("GET", "/document/42")).text, "document 42");
    assert.equal((await call("GET", "/document/a%20b")).text, "document a b");
    assert.equal((await call("HEAD", "/document/42")).status, 200);
    const patch = await call("PATCH", "/document/42");
    assert.equal(patch.status, 405);
    assert.equal(patch.allow, "GET, HEAD, PUT, DELETE, OPTIONS");
  });

  test("post, put and delete are restricted to their verb", async () => {
    assert.equal((await call("POST", "/document")).text, "created");
    assert.equal((await call("GET", "/document")).status, 405);
    assert.equal((await call("PUT", "/document/7")).text, "replaced 7");
    assert.equal((await call("DELETE", "/document/7")).text, "deleted 7");
    assert.equal((await call("POST", "/document/7")).status, 405);
    assert.equal((await call("POST", "/document/publish/3")).text, "published 3");
    assert.equal((await call("GET", "/document/publish/3")).status, 405);
    assert.equal((await call("PUT", "/document/lock/1")).text, "PUT lock 1");
    assert.equal((await call("DELETE", "/document/lock/1")).text, "DELETE lock 1");
    assert.equal((await call("GET", "/document/lock/1")).status, 405);
  });

  test("a class route is the prefix every method inherits", async () => {
    assert.equal((await call("GET", "/store")).status, 200);
    assert.equal((await call("GET", "/store/teas")).text, "teas");
    assert.equal((await call("GET", "/store/item/green")).text, "item green");
    assert.equal((await call("GET", "/store/specials/winter")).text, "specials winter");
    assert.equal((await call("GET", "/catalog/teas")).status, 404);
  });

  test("no trailing slash on generated paths; the slashed form redirects with 308, query kept", async () => {
    const res = await fetch(`${app.url}/account/info/?tab=1`, { redirect: "manual" });
    assert.equal(res.status, 308);
    assert.equal(res.headers.get("location"), "/account/info?tab=1");
    assert.ok(app.host.table.routes.every((r) => r.path === "/" || !r.path.endsWith("/")));
  });

  test("views in sub-folders are mounted; OPTIONS lists the verbs", async () => {
    assert.equal((await call("GET", "/users")).text, "<p>Users: 2</p>");
    const options = await call("OPTIONS", "/document/7");
    assert.equal(options.status, 204);
    assert.equal(options.allow, "GET, HEAD, PUT, DELETE, OPTIONS");
  });

  test("method override: a form POST with _method=DELETE reaches delete()", async () => {
    const res = await fetch(`${app.url}/document/9`, {
      method: "POST",
      body: new URLSearchParams({ _method: "DELETE" }),
    });
    assert.equal(await res.text(), "deleted 9");
  });

  test("the route table lists the response kind of each route", () => {
    const listing = app.host.table.toJSON(app.host.describe);
    const kind = (handler: string) => listing.find((r) => r.handler === handler)?.kind;
    assert.equal(kind("Api.index"), "json");
    assert.equal(kind("Api.feed"), "xml");
    assert.equal(kind("Index.index"), "html");
  });
});

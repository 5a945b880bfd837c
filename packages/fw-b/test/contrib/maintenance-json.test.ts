// Maintenance answers in the route's kind, as every error raised before the view does: a
// `@renderJson` view gets a 503 JSON error (in the request's language) even with `Accept: */*`,
// an HTML page gets the maintenance page; both with Retry-After.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { setMaintenance } from "../../src/contrib/index.js";
import { startContribApp, type ContribApp } from "./fixture.js";

describe("maintenance in the route's kind", () => {
  let app: ContribApp;
  before(async () => {
    app = await startContribApp();
    await setMaintenance(app.models.users.knex, true);
  });
  after(async () => {
    await setMaintenance(app.models.users.knex, false);
    await app.close();
  });

  test("a @renderJson view answers 503 JSON with Accept: */*", async () => {
    const res = await fetch(`${app.url}/api`, { headers: { accept: "*/*" } });
    assert.equal(res.status, 503);
    assert.match(res.headers.get("content-type") ?? "", /application\/json/);
    assert.ok(res.headers.get("retry-after"));
    const body = (await res.json()) as { error: { status: number; message: string } };
    assert.equal(body.error.status, 503);
    assert.match(body.error.message, /back shortly/);
  });

  test("the JSON answer is in the request's language", async () => {
    const english = (await (await fetch(`${app.url}/api`, { headers: { accept: "*/*" } })).json()) as {
      error: { message: string };
    };
    const german = (await (
      await fetch(`${app.url}/api`, { headers: { accept: "*/*", "accept-language": "de" } })
    ).json()) as { error: { message: string } };
    assert.notEqual(german.error.message, english.error.message);
  });

  test("an HTML page still gets the maintenance page", async () => {
    const res = await fetch(`${app.url}/`, { headers: { accept: "text/html" } });
    assert.equal(res.status, 503);
    assert.match(res.headers.get("content-type") ?? "", /text\/html/);
    assert.ok(res.headers.get("retry-after"));
  });
});

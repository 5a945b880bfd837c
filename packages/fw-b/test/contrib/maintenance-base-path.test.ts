// An app under a base path (written with a trailing slash in its config): while maintenance is on,
// its pages answer 503 and the pages that stay open (login, the admin area) are found under the
// prefix, which the contrib plugin knows from the config it is built with.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { setMaintenance } from "../../src/contrib/index.js";
import { startContribApp, type ContribApp } from "./fixture.js";

describe("maintenance under a base path", () => {
  let app: ContribApp;
  before(async () => {
    app = await startContribApp({ config: { basePath: "/shop/" } });
    await setMaintenance(app.models.users.knex, true);
  });
  after(async () => {
    await setMaintenance(app.models.users.knex, false);
    await app.close();
  });

  test("the config holds the prefix without its trailing slash", () => {
    assert.equal(app.host.config.basePath, "/shop");
    assert.equal(app.host.runtime.basePath, "/shop");
  });

  test("a page under the prefix answers 503", async () => {
    const res = await fetch(`${app.url}/shop/`, { headers: { accept: "text/html" } });
    assert.equal(res.status, 503);
    assert.ok(res.headers.get("retry-after"));
  });

  test("the login page and the admin area under the prefix stay open", async () => {
    const login = await fetch(`${app.url}/shop/login`, { headers: { accept: "text/html" } });
    assert.equal(login.status, 200);
    const admin = await fetch(`${app.url}/shop/admin`, { headers: { accept: "text/html" }, redirect: "manual" });
    assert.notEqual(admin.status, 503);
  });
});

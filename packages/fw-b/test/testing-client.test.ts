// The test client of fw-b/testing against an fw-b app with its default batteries:
// XML and JSON answers, loginAs through the security battery, the CSRF token on unsafe verbs.
// The first case is the example of docs/api.md ("Testing your app").
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { FwB, currentUser, type CurrentUser } from "fw-b";
import { renderJson, renderXml } from "fw-b/decorators";
import { testClient } from "fw-b/testing";

@renderXml
class Account extends FwB {
  index() {
    return { name: currentUser<{ id: number; name: string }>(this.ctx)?.name ?? "nobody" };
  }
}

@renderJson
class Notes extends FwB {
  post() {
    return { saved: (this.ctx.request.body as { title?: string }).title ?? null };
  }
}

describe("fw-b/testing testClient", () => {
  test("loginAs signs the user in for the next requests (docs/api.md)", async () => {
    // Your user row (what your login view passes to login()); here a plain object typed as the app's user.
    const ada = { id: 1, name: "Ada" } as CurrentUser;
    const client = await testClient({
      modules: [{ name: "account", exports: { Account } }],
      auth: { loadUser: (id: string) => (id === "1" ? ada : undefined) },
    });
    try {
      assert.equal((await client.get("/account")).xml().find("name")?.text, "nobody");
      await client.loginAs(ada);
      assert.equal((await client.get("/account")).xml().find("name")?.text, "Ada");
    } finally {
      await client.close();
    }
  });

  test("POST carries the CSRF token (JSON and form bodies); csrf: false gets the app's 403", async () => {
    const client = await testClient({ modules: [{ name: "notes", exports: { Notes } }] });
    try {
      assert.deepEqual((await client.post("/notes", { json: { title: "a" } })).json(), { saved: "a" });
      assert.deepEqual((await client.post("/notes", { form: { title: "b" } })).json(), { saved: "b" });
      const refused = await client.post("/notes", { json: { title: "c" }, csrf: false });
      assert.equal(refused.status, 403);
      assert.equal(refused.type, "application/json");
      assert.throws(() => refused.xml(), (error: Error & { code?: string }) => error.code === "E_TEST_RESPONSE_FORMAT");
    } finally {
      await client.close();
    }
  });

  test("loginAs without the security battery fails with E_TEST_CLIENT_LOGIN, and no token is sent", async () => {
    const client = await testClient({ modules: [{ name: "notes", exports: { Notes } }], config: { batteries: { security: false, data: false, services: false } } });
    try {
      await assert.rejects(client.loginAs({ id: 1 }), (error: Error & { code?: string }) => error.code === "E_TEST_CLIENT_LOGIN");
      assert.equal(await client.csrfToken(), undefined);
      assert.deepEqual((await client.post("/notes", { json: { title: "d" } })).json(), { saved: "d" });
    } finally {
      await client.close();
    }
  });
});

// The test client of fw-a/testing, against an fw-a app with the security battery on:
// in-memory requests, cookies kept, the CSRF token sent for unsafe verbs, loginAs through login().
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { FwA, response, security } from "fw-a";
import { testClient, type TestClient } from "fw-a/testing";

interface User {
  readonly id: number;
  readonly name: string;
}
const users = new Map<string, User>([["7", { id: 7, name: "Ada" }]]);

@response.json
class Notes extends FwA {
  index() {
    return { user: security.currentUser<User>(this.ctx)?.name ?? null };
  }

  post() {
    return { saved: (this.ctx.request.body as { title?: string }).title ?? null };
  }

  @security.loginRequired
  mine() {
    return { owner: security.currentUser<User>(this.ctx)!.name };
  }

  show(slug: string) {
    return { slug, url: this.urlFor("Notes.show", { slug }) };
  }
}

class Index extends FwA {
  index() {
    return "<p>home</p>";
  }
}

const SECURE = { batteries: { security: true, data: false, services: false } };

describe("fw-a/testing testClient", () => {
  let client: TestClient;
  before(async () => {
    client = await testClient({ modules: [{ name: "notes", exports: { Notes, Index } }], config: SECURE, auth: { loadUser: (id: string) => users.get(id), userId: (u: unknown) => (u as User).id } });
  });
  after(() => client.close());

  test("GET reads JSON and HTML answers with no port opened", async () => {
    const home = await client.get("/");
    assert.equal(home.status, 200);
    assert.equal(home.type, "text/html");
    assert.equal(home.text(), "<p>home</p>");
    const notes = await client.get("/notes/");
    assert.deepEqual(notes.json(), { user: null });
  });

  test("an unsafe verb carries the session's CSRF token; csrf: false shows the app's refusal", async () => {
    const saved = await client.post("/notes/", { json: { title: "first" } });
    assert.equal(saved.status, 200, saved.text());
    assert.deepEqual(saved.json(), { saved: "first" });
    const form = await client.post("/notes/", { form: { title: "second" } });
    assert.deepEqual(form.json(), { saved: "second" });
    const refused = await client.post("/notes/", { json: { title: "x" }, csrf: false });
    assert.equal(refused.status, 403);
  });

  test("loginAs logs the user in through the security battery; cookies carry the session", async () => {
    assert.equal((await client.get("/notes/mine/")).status, 401);
    await client.loginAs(users.get("7"));
    assert.ok(client.cookies.names().length > 0);
    assert.deepEqual((await client.get("/notes/mine/")).json(), { owner: "Ada" });
    assert.deepEqual((await client.post("/notes/", { json: { title: "after login" } })).json(), { saved: "after login" });
    client.logout();
    assert.equal((await client.get("/notes/mine/")).status, 401);
  });

  test("urlFor builds the app's URLs; json() on a non-JSON answer names what came back", async () => {
    assert.equal(client.urlFor("Notes.show", { slug: "a b" }), "/notes/show/a%20b/");
    assert.deepEqual((await client.get(client.urlFor("Notes.show", { slug: "x" }))).json(), { slug: "x", url: "/notes/show/x/" });
    const home = await client.get("/");
    assert.throws(() => home.json(), (error: Error & { code?: string }) => error.code === "E_TEST_RESPONSE_FORMAT" && /status 200, text\/html/.test(error.message));
  });
});

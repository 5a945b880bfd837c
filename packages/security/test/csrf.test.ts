/**
 * CSRF: POST, PUT, PATCH and DELETE need this session's token in `_csrf_token` or
 * `X-CSRF-Token`; missing or wrong gives 403 with a clear message. Exemptions: `@csrfExempt` on a
 * method or a class, and bearer-only requests.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { csrfExempt, csrfToken, login, logout } from "../src/index.js";
import { del, post, put, startApp, USERS, View, type TestApp } from "./helpers/app.js";
import { HttpClient } from "@fwkit/test-servers";

class Index extends View {
  form() {
    return { token: csrfToken(this.ctx) };
  }

  @post
  submit() {
    return { ok: true };
  }

  @put
  replace() {
    return { ok: true };
  }

  @del
  remove() {
    return { ok: true };
  }

  @post
  @csrfExempt
  webhook() {
    return { ok: true, exempt: "method" };
  }

  async signIn() {
    await login(this.ctx, USERS["1"]);
    return { ok: true };
  }

  async signOut() {
    await logout(this.ctx);
    return { ok: true };
  }
}

@csrfExempt()
class Hooks extends View {
  @post
  receive() {
    return { ok: true, exempt: "class" };
  }
}

async function tokenOf(client: HttpClient): Promise<string> {
  return (await client.get("/form")).json<{ token: string }>().token;
}

for (const sessionUrl of ["cookie", "memory:"]) {
  describe(`CSRF (${sessionUrl} sessions)`, () => {
    let app: TestApp;
    before(async () => {
      app = await startApp({ views: { Index, Hooks }, security: { sessionUrl } });
    });
    after(() => app.close());

    test("a form POST without the token gets 403 naming the field; with it, 200", async () => {
      const client = new HttpClient(app.url);
      const token = await tokenOf(client);
      const refused = await client.post("/submit", { form: { name: "x" } });
      assert.equal(refused.status, 403);
      assert.match(refused.text, /_csrf_token/);
      assert.match(refused.text, /X-CSRF-Token/);
      const accepted = await client.post("/submit", { form: { name: "x", _csrf_token: token } });
      assert.equal(accepted.status, 200, accepted.text);
    });

    test("a JSON POST with the X-CSRF-Token header works; PUT and DELETE are checked too", async () => {
      const client = new HttpClient(app.url);
      const token = await tokenOf(client);
      assert.equal((await client.post("/submit", { json: { a: 1 }, headers: { "X-CSRF-Token": token } })).status, 200);
      assert.equal((await client.request("/replace", { method: "PUT", json: {} })).status, 403);
      assert.equal(
        (await client.request("/replace", { method: "PUT", json: {}, headers: { "X-CSRF-Token": token } })).status,
        200,
      );
      assert.equal((await client.request("/remove", { method: "DELETE" })).status, 403);
      assert.equal(
        (await client.request("/remove", { method: "DELETE", headers: { "x-csrf-token": token } })).status,
        200,
      );
    });

    test("every token issued to a session stays valid for it (tokens are masked per call)", async () => {
      const client = new HttpClient(app.url);
      const first = await tokenOf(client);
      const second = await tokenOf(client);
      assert.notEqual(first, second, "two calls give two different strings");
      assert.equal((await client.post("/submit", { form: { _csrf_token: first } })).status, 200);
      assert.equal((await client.post("/submit", { form: { _csrf_token: second } })).status, 200);
    });

    test("a tampered token is refused with 403", async () => {
      const client = new HttpClient(app.url);
      const token = await tokenOf(client);
      const flipped = token.slice(0, 10) + (token[10] === "A" ? "B" : "A") + token.slice(11);
      const refused = await client.post("/submit", { form: { _csrf_token: flipped } });
      assert.equal(refused.status, 403);
      assert.match(refused.text, /invalid or belongs to another session/);
      for (const bad of ["x", "", "!!!!", "a".repeat(5000), token.slice(0, -2)]) {
        const response = await client.post("/submit", { headers: { "X-CSRF-Token": bad }, form: {} });
        assert.equal(response.status, 403, `token ${JSON.stringify(bad.slice(0, 20))} gets 403, never 500`);
      }
    });

    test("a token from another session is refused", async () => {
      const mallory = new HttpClient(app.url);
      const victim = new HttpClient(app.url);
      const malloryToken = await tokenOf(mallory);
      await tokenOf(victim);
      const refused = await victim.post("/submit", { form: { _csrf_token: malloryToken } });
      assert.equal(refused.status, 403);
      const noSession = await new HttpClient(app.url).post("/submit", { form: { _csrf_token: malloryToken } });
      assert.equal(noSession.status, 403, "a token without any session is refused");
    });

    test("a token from before login stays valid after login (the session takes the visitor's secret over)", async () => {
      const client = new HttpClient(app.url);
      const before = await tokenOf(client);
      await client.get("/sign-in");
      assert.equal((await client.post("/submit", { form: { _csrf_token: before } })).status, 200);
      assert.equal((await client.post("/submit", { form: { _csrf_token: await tokenOf(client) } })).status, 200);
    });

    test("a token replayed after logout is refused, also when the visitor had a CSRF cookie before login", async () => {
      const client = new HttpClient(app.url);
      await tokenOf(client);
      await client.get("/sign-in");
      const token = await tokenOf(client);
      await client.get("/sign-out");
      assert.equal((await client.post("/submit", { form: { _csrf_token: token } })).status, 403);
      assert.equal((await client.post("/submit", { form: { _csrf_token: await tokenOf(client) } })).status, 200);
    });

    test("a token replayed after logout is refused", async () => {
      const client = new HttpClient(app.url);
      await client.get("/sign-in");
      const token = await tokenOf(client);
      const oldCookies = client.cookieHeader();
      await client.get("/sign-out");
      assert.equal((await client.post("/submit", { form: { _csrf_token: token } })).status, 403);
      if (sessionUrl !== "cookie") {
        // A server-side session is destroyed at logout: even the old cookie together with the old token fails.
        const replay = await client.post("/submit", { form: { _csrf_token: token }, headers: { cookie: oldCookies } });
        assert.equal(replay.status, 403);
      }
    });

    test("@csrfExempt on a method or on a class lets a POST through without a token", async () => {
      const client = new HttpClient(app.url);
      assert.deepEqual((await client.post("/webhook", { json: {} })).json(), { ok: true, exempt: "method" });
      assert.deepEqual((await client.post("/hooks/receive", { json: {} })).json(), { ok: true, exempt: "class" });
    });

    test("a bearer-only request (no session cookie) is exempt; a bearer header beside a session cookie is not", async () => {
      const client = new HttpClient(app.url);
      const bearerOnly = await client.post("/submit", { json: {}, headers: { Authorization: "Bearer abc.def.ghi" } });
      assert.equal(bearerOnly.status, 200, bearerOnly.text);
      await client.get("/sign-in");
      assert.ok(client.cookies.has("session"));
      const withCookie = await client.post("/submit", { json: {}, headers: { Authorization: "Bearer abc.def.ghi" } });
      assert.equal(withCookie.status, 403);
    });
  });
}

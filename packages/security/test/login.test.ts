/**
 * The login manager end to end: `loginRequired` (HTML redirect with `next` vs 401 for JSON/XML
 * views and API clients), `ctx.state.currentUser` and the template locals, remember-me, and
 * deleted users.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { responseKindTag } from "routing-kernel";
import { currentUser, login, logout, loginRequired, type SecurityPlugin } from "../src/index.js";
import { startApp, USERS, View, type TestApp } from "./helpers/app.js";
import { HttpClient } from "@fwkit/test-servers";

/** What fw-a's `@response.json` / fw-b's `@renderJson` record. */
const json = responseKindTag("json", "json");
const xml = responseKindTag("xml", "xml");
let plugin: SecurityPlugin | undefined;
const passwords = new Map<string, string>([["1", "wonderland"]]);

@loginRequired
class Account extends View {
  index() {
    return `<p>account of ${currentUser<{ name: string }>(this.ctx)!.name}</p>`;
  }

  @json
  data() {
    return { user: currentUser<{ name: string }>(this.ctx)!.name };
  }
}

class Index extends View {
  index() {
    return "<p>public</p>";
  }

  @loginRequired
  @json
  api() {
    return { secret: 42 };
  }

  @loginRequired
  @xml
  feed() {
    return "<response/>";
  }

  @loginRequired()
  page() {
    return "<p>page</p>";
  }

  async signIn() {
    await login(this.ctx, USERS[String(this.ctx.query["user"] ?? "1")], {
      remember: this.ctx.query["remember"] === "1",
    });
    return { ok: true };
  }

  async signOut() {
    await logout(this.ctx);
    return { ok: true };
  }

  whoami() {
    const locals = plugin!.locals!(this.ctx);
    const token = (locals["csrf_token"] as () => string)();
    return {
      user: (locals["current_user"] as { name: string } | null)?.name ?? null,
      state: currentUser<{ name: string }>(this.ctx)?.name ?? null,
      token: token.length,
    };
  }
}

describe("login manager", () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({
      views: { Index, Account },
      security: {
        sessionUrl: "memory:",
        // User 2 logs in but has since been deleted: the loader no longer finds it.
        loadUser: (id: string) => (id === "2" ? undefined : USERS[id]),
        rememberFingerprint: (user: unknown) => passwords.get((user as { id: string }).id) ?? "",
      },
    });
    plugin = app.plugin;
  });
  after(() => app.close());

  test("an HTML login-required view redirects anonymous users to the login page with next", async () => {
    const client = new HttpClient(app.url);
    for (const [path, next] of [
      ["/account", "/account"],
      ["/account?tab=2&x=%C3%A9", "/account?tab=2&x=%C3%A9"],
      ["/page", "/page"],
    ]) {
      const response = await client.get(path!);
      assert.equal(response.status, 302, path);
      assert.equal(response.headers.get("location"), `/login?next=${encodeURIComponent(next!)}`);
    }
  });

  test("JSON and XML login-required views, and clients that do not accept HTML, get 401", async () => {
    const client = new HttpClient(app.url);
    for (const path of ["/api", "/feed", "/account/data"]) {
      const response = await client.get(path);
      assert.equal(response.status, 401, path);
      assert.match(response.text, /log in/);
      assert.match(response.headers.get("www-authenticate") ?? "", /form-action="\/login"/);
    }
    const apiClient = await client.get("/account", { headers: { Accept: "application/json" } });
    assert.equal(apiClient.status, 401, "a client that accepts only JSON is not redirected");
    const browser = await client.get("/account", { headers: { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
    assert.equal(browser.status, 302);
  });

  test("once logged in, the same views answer; the user is on ctx.state and in the template locals", async () => {
    const client = new HttpClient(app.url);
    assert.deepEqual((await client.get("/whoami")).json(), { user: null, state: null, token: 86 });
    await client.get("/sign-in?user=1");
    assert.equal((await client.get("/account")).text, "<p>account of alice</p>");
    assert.deepEqual((await client.get("/api")).json(), { secret: 42 });
    assert.deepEqual((await client.get("/whoami")).json(), { user: "alice", state: "alice", token: 86 });
    await client.get("/sign-out");
    assert.equal((await client.get("/account")).status, 302, "logged out again");
  });

  test("remember-me: a long-lived separate cookie logs the user back in when the session is gone", async () => {
    const client = new HttpClient(app.url);
    const signIn = await client.get("/sign-in?user=1&remember=1");
    const cookie = signIn.setCookies.find((c) => c.name === "remember_token");
    assert.ok(cookie, "the remember-me cookie is set");
    assert.ok("httponly" in cookie.attributes);
    assert.equal(cookie.attributes["samesite"]?.toLowerCase(), "lax");
    const days = (Date.parse(cookie.attributes["expires"]!) - Date.now()) / 86_400_000;
    assert.ok(days > 29 && days <= 30, `lives 30 days (got ${days.toFixed(2)})`);
    client.cookies.delete("session");
    const back = await client.get("/whoami");
    assert.equal(back.json().user, "alice", "logged back in from the remember-me cookie");
    assert.ok(
      back.setCookies.some((c) => c.name === "session" && c.value),
      "on a new session",
    );

    const withoutRemember = new HttpClient(app.url);
    await withoutRemember.get("/sign-in?user=1");
    assert.equal(withoutRemember.cookies.has("remember_token"), false);
    withoutRemember.cookies.delete("session");
    assert.equal((await withoutRemember.get("/whoami")).json().user, null);
  });

  test("logout clears the remember-me cookie", async () => {
    const client = new HttpClient(app.url);
    await client.get("/sign-in?user=1&remember=1");
    const stolen = client.cookies.get("remember_token")!;
    await client.get("/sign-out");
    assert.equal(client.cookies.has("remember_token"), false);
    assert.ok(stolen);
  });

  test("a remember-me cookie stops working when the user's fingerprint (password) changes", async () => {
    const client = new HttpClient(app.url);
    await client.get("/sign-in?user=1&remember=1");
    client.cookies.delete("session");
    passwords.set("1", "changed");
    try {
      assert.equal((await client.get("/whoami")).json().user, null);
      assert.equal(client.cookies.has("remember_token"), false, "the stale cookie is cleared");
    } finally {
      passwords.set("1", "wonderland");
    }
  });

  test("a user that no longer exists is logged out", async () => {
    const client = new HttpClient(app.url);
    await client.get("/sign-in?user=2");
    assert.equal((await client.get("/whoami")).json().user, null, "loadUser returned nothing for user 2");
    assert.equal((await client.get("/account")).status, 302);
  });
});

describe("loginRequired without a user loader", () => {
  test("is a start-up error naming the route", async () => {
    await assert.rejects(
      startApp({ views: { Account }, security: { loadUser: undefined } }),
      (error: Error & { code?: string }) =>
        error.code === "E_SECURITY_CONFIG_INVALID" && /Account\.index/.test(error.message),
    );
  });
});

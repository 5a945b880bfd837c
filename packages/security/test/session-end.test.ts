/**
 * Sessions that end with the user's credentials, and visitors who cost the session store nothing,
 * on signed-cookie, memory and Redis sessions:
 * - a password change ends every other session of the user (the current one goes on), a mailed
 *   reset ends them all, an account the loader refuses (disabled) is logged out everywhere, and
 *   remember-me cookies made before the change stop working;
 * - pages with a form give anonymous visitors a CSRF token from a signed cookie, so no session is
 *   stored; the token works for a POST, a missing or wrong one is refused, and it stays valid
 *   across login; a stored anonymous session gets the short anonymous lifetime.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { Redis } from "ioredis";
import { requireServer, serverSkip, serverUrls } from "@fwkit/test-servers";
import { csrfToken, getSession, login, updateSessionAuth } from "../src/index.js";
import { MemorySessionStore } from "../src/stores/memory.js";
import { post, startApp, View, type TestApp } from "./helpers/app.js";
import { HttpClient } from "@fwkit/test-servers";

interface Account {
  id: string;
  name: string;
  passwordHash: string;
  active: boolean;
}

const accounts = new Map<string, Account>();
function resetAccounts(): void {
  accounts.clear();
  accounts.set("1", { id: "1", name: "alice", passwordHash: "hash-1", active: true });
  accounts.set("2", { id: "2", name: "bob", passwordHash: "hash-2", active: true });
}
resetAccounts();

const account = (ctx: View["ctx"]): Account => accounts.get(String(ctx.query["user"] ?? "1"))!;

class Index extends View {
  whoami() {
    return { user: (this.ctx.state["currentUser"] as Account | undefined)?.name ?? null };
  }

  async signIn() {
    await login(this.ctx, account(this.ctx), { remember: this.ctx.query["remember"] === "1" });
    return { ok: true };
  }

  /** The logged-in user sets a new password and stays logged in here. */
  @post
  async changePassword() {
    const user = this.ctx.state["currentUser"] as Account;
    user.passwordHash = randomBytes(8).toString("hex");
    await updateSessionAuth(this.ctx, user);
    return { ok: true };
  }

  /** A mailed reset link: nobody is logged in, the password changes. */
  @post
  resetPassword() {
    account(this.ctx).passwordHash = randomBytes(8).toString("hex");
    return { ok: true };
  }

  /** An admin disables the account (the loader refuses it from now on). */
  @post
  disable() {
    account(this.ctx).active = false;
    return { ok: true };
  }

  form() {
    return { token: csrfToken(this.ctx) };
  }

  @post
  submit() {
    return { ok: true };
  }

  /** An anonymous visitor writes the session (a language choice). */
  @post
  choose() {
    getSession(this.ctx)["language"] = "fr";
    return { ok: true };
  }
}

const security = {
  loadUser: (id: string) => {
    const found = accounts.get(id);
    return found?.active ? found : undefined;
  },
  sessionFingerprint: (user: unknown) => (user as Account).passwordHash,
};

function copyOf(client: HttpClient): HttpClient {
  const copy = new HttpClient(client.base);
  for (const [name, value] of client.cookies) copy.cookies.set(name, value);
  return copy;
}

async function token(client: HttpClient): Promise<string> {
  return (await client.get("/form")).json<{ token: string }>().token;
}

async function whoami(client: HttpClient): Promise<string | null> {
  return (await client.get("/whoami")).json<{ user: string | null }>().user;
}

async function send(client: HttpClient, path: string): Promise<number> {
  return (await client.post(path, { form: { _csrf_token: await token(client) } })).status;
}

interface StoreUnderTest {
  readonly name: string;
  readonly skip?: string | false;
  url(): Promise<string> | string;
  readonly security?: () => Record<string, unknown>;
  /** The keys the store holds now (undefined: cookie sessions, nothing is stored). */
  readonly count?: () => Promise<number>;
  /** Seconds the store keeps the session of `id` (Redis only). */
  readonly ttl?: (id: string) => Promise<number>;
  readonly after?: () => Promise<void>;
}

function suite(store: StoreUnderTest): void {
  describe(`sessions end with the credentials, anonymous visitors store nothing: ${store.name}`, {
    skip: store.skip ?? false,
  }, () => {
    let app: TestApp;
    before(async () => {
      const url = await store.url();
      app = await startApp({
        views: { Index },
        security: {
          ...security,
          sessionUrl: url,
          sessionSweepInterval: 0,
          sessionAnonymousMaxAge: 600,
          ...store.security?.(),
        },
      });
    });
    after(async () => {
      await app.close();
      await store.after?.();
      resetAccounts();
    });

    test("a password change ends the user's other sessions and any copy of this one; the current session goes on", async () => {
      resetAccounts();
      const victim = new HttpClient(app.url);
      const other = new HttpClient(app.url);
      await victim.get("/sign-in?user=1");
      await other.get("/sign-in?user=1");
      const stolen = copyOf(victim);
      const bob = new HttpClient(app.url);
      await bob.get("/sign-in?user=2");
      assert.equal(await whoami(stolen), "alice");
      assert.equal(await send(victim, "/change-password"), 200);
      assert.equal(await whoami(victim), "alice", "the session that changed the password stays logged in");
      assert.equal(await send(victim, "/submit"), 200, "and its forms keep working");
      assert.equal(await whoami(other), null, "another session of the user is logged out");
      assert.equal(await whoami(stolen), null, "a stolen copy of the current session's cookie is logged out");
      assert.equal(await whoami(bob), "bob", "other users are not touched");
    });

    test("a mailed password reset ends every session of the user", async () => {
      resetAccounts();
      const victim = new HttpClient(app.url);
      await victim.get("/sign-in?user=1");
      const stolen = copyOf(victim);
      const anonymous = new HttpClient(app.url);
      assert.equal(await send(anonymous, "/reset-password?user=1"), 200);
      assert.equal(await whoami(stolen), null);
      assert.equal(await whoami(victim), null);
      await victim.get("/sign-in?user=1");
      assert.equal(await whoami(victim), "alice", "logging in again works");
    });

    test("an account the loader refuses (disabled by an admin) is logged out everywhere", async () => {
      resetAccounts();
      const victim = new HttpClient(app.url);
      await victim.get("/sign-in?user=2");
      const admin = new HttpClient(app.url);
      await admin.get("/sign-in?user=1");
      assert.equal(await send(admin, "/disable?user=2"), 200);
      assert.equal(await whoami(victim), null);
      accounts.get("2")!.active = true;
      assert.equal(await whoami(victim), null, "the session was ended, not just hidden while disabled");
    });

    test("remember-me cookies made before a password change stop working; the changer's own is renewed", async () => {
      resetAccounts();
      const victim = new HttpClient(app.url);
      await victim.get("/sign-in?user=1&remember=1");
      const rememberName = "remember_token";
      const stolen = new HttpClient(app.url);
      stolen.cookies.set(rememberName, victim.cookies.get(rememberName)!);
      const rememberedOnly = new HttpClient(app.url);
      rememberedOnly.cookies.set(rememberName, victim.cookies.get(rememberName)!);
      assert.equal(await whoami(rememberedOnly), "alice", "a remember-me cookie alone logs in");
      assert.equal(await send(victim, "/change-password"), 200);
      assert.equal(await whoami(stolen), null, "the old remember-me cookie is refused");
      const renewed = new HttpClient(app.url);
      renewed.cookies.set(rememberName, victim.cookies.get(rememberName)!);
      assert.equal(
        await whoami(renewed),
        "alice",
        "the changer's browser got a remember-me cookie for the new password",
      );
    });

    test("anonymous GETs of a page with a form store no session and set a signed HttpOnly SameSite=Lax CSRF cookie", async () => {
      const before = await store.count?.();
      for (let i = 0; i < 25; i++) {
        const visitor = new HttpClient(app.url);
        const page = await visitor.get("/form");
        assert.equal(page.status, 200);
        assert.ok(!visitor.cookies.has("session"), "no session cookie");
        const cookie = page.setCookies.find((c) => c.name === "csrf");
        assert.ok(cookie, "a CSRF cookie");
        assert.ok("httponly" in cookie.attributes);
        assert.equal(cookie.attributes["samesite"]?.toLowerCase(), "lax");
        assert.equal(cookie.attributes["path"], "/");
      }
      if (store.count) assert.equal((await store.count()) - before!, 0, "no key was stored");
    });

    test("an anonymous POST with the cookie's token passes; without a token, with a wrong one or without the cookie it is 403", async () => {
      const visitor = new HttpClient(app.url);
      const good = await token(visitor);
      assert.equal((await visitor.post("/submit", { form: { _csrf_token: good } })).status, 200);
      assert.equal((await visitor.post("/submit", { form: {} })).status, 403);
      const other = new HttpClient(app.url);
      assert.equal(
        (await visitor.post("/submit", { form: { _csrf_token: await token(other) } })).status,
        403,
        "another visitor's token",
      );
      assert.equal(
        (await visitor.post("/submit", { form: { _csrf_token: "x".repeat(86) } })).status,
        403,
        "a made-up token",
      );
      assert.equal(
        (await visitor.post("/submit", { form: { _csrf_token: good }, noCookies: true })).status,
        403,
        "the token without its cookie",
      );
      const forged = new HttpClient(app.url);
      forged.cookies.set("csrf", `${Buffer.alloc(32).toString("base64url")}.forged`);
      const zero = Buffer.alloc(64).toString("base64url");
      assert.equal(
        (await forged.post("/submit", { form: { _csrf_token: zero } })).status,
        403,
        "an unsigned CSRF cookie counts for nothing",
      );
      if (store.count) assert.equal(visitor.cookies.has("session"), false, "refused or not, no session was made");
    });

    test("the token of a page rendered before login still works after login, and new pages' tokens too", async () => {
      resetAccounts();
      const visitor = new HttpClient(app.url);
      const before = await token(visitor);
      await visitor.get("/sign-in?user=1");
      assert.equal((await visitor.post("/submit", { form: { _csrf_token: before } })).status, 200);
      assert.equal(await send(visitor, "/submit"), 200);
      // From login on the session holds the secret: a CSRF cookie planted later changes nothing.
      const planted = new HttpClient(app.url);
      const plantedToken = await token(planted);
      visitor.cookies.set("csrf", planted.cookies.get("csrf")!);
      assert.equal((await visitor.post("/submit", { form: { _csrf_token: plantedToken } })).status, 403);
    });

    test("a session an anonymous visitor does write gets the short anonymous lifetime; login gives the full one", {
      skip: store.ttl ? false : "Redis only",
    }, async () => {
      const visitor = new HttpClient(app.url);
      assert.equal(await send(visitor, "/choose"), 200);
      const cookie = visitor.cookies.get("session")!;
      const id = cookie.slice(0, cookie.lastIndexOf("."));
      const anonymous = await store.ttl!(id);
      assert.ok(anonymous > 0 && anonymous <= 610, `anonymous TTL ${anonymous}s`);
      await visitor.get("/sign-in?user=2");
      const loggedIn = visitor.cookies.get("session")!;
      const ttl = await store.ttl!(loggedIn.slice(0, loggedIn.lastIndexOf(".")));
      assert.ok(ttl > 3600, `logged-in TTL ${ttl}s`);
    });
  });
}

suite({ name: "signed cookie", url: () => "cookie" });

const memory = new MemorySessionStore();
suite({
  name: "memory",
  url: () => "memory:",
  security: () => ({ sessionStore: memory }),
  count: async () => memory.size,
});

const prefix = `sess_end_${process.pid}_${Date.now().toString(36)}:`;
let redis: Redis | undefined;
suite({
  name: "redis",
  skip: serverSkip.skip,
  url: async () => {
    await requireServer("redis");
    redis = new Redis(serverUrls.redis);
    return `${serverUrls.redis}?prefix=${encodeURIComponent(prefix)}`;
  },
  // Session keys only: the failed-login counters share the prefix under login-limit:.
  count: async () => (await redis!.keys(`${prefix}*`)).filter((key) => !key.startsWith(`${prefix}login-limit:`)).length,
  ttl: async (id) => redis!.ttl(`${prefix}${id}`),
  after: async () => {
    const keys = await redis!.keys(`${prefix}*`);
    if (keys.length > 0) await redis!.del(...keys);
    await redis!.quit();
  },
});

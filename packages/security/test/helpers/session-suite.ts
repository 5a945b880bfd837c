/**
 * The one session-store suite every store runs (cookie, memory, Redis, PostgreSQL, MariaDB,
 * SQLite, S3): set, read across requests and across app instances, expire (and clean up),
 * destroy at logout, regenerate at login. Each store gives its URL and a raw existence check that
 * bypasses the store's own expiry filtering.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { currentUser, getSession, login, logout } from "../../src/index.js";
import { sessionId } from "../../src/plugin-api.js";
import { startApp, USERS, View, type TestApp } from "./app.js";
import { HttpClient } from "@fwkit/test-servers";

/** One store under test. */
export interface StoreCase {
  readonly name: string;
  /** A session URL with a namespace (table, prefix, bucket path) unique to this run. */
  url(): string | Promise<string>;
  /** Does the store still hold `id`, expired or not? Absent for cookie sessions (no server id). */
  readonly rawExists?: (id: string) => Promise<boolean>;
  /** `self`: the store drops expired entries itself (Redis TTL, memory on read); `sweep`: `sweepSessions()` deletes them. */
  readonly cleanup?: "self" | "sweep";
  /** A skip reason for the whole suite (a missing server under FW_TEST_NO_SERVERS=1). */
  readonly skip?: string | false;
  /** Cases that do not apply to this store, each with its reason. */
  readonly notApplicable?: { readonly sharedAcrossApps?: string };
  /** Extra plugin options for every app of the suite (an injected store). */
  readonly security?: () => Record<string, unknown>;
  readonly before?: () => Promise<void>;
  readonly after?: () => Promise<void>;
}

class Index extends View {
  setValue() {
    getSession(this.ctx).value = String(this.ctx.query["value"] ?? "");
    return { ok: true };
  }

  readValue() {
    const user = currentUser<{ name: string }>(this.ctx);
    return { value: getSession(this.ctx).value ?? null, id: sessionId(this.ctx) ?? null, user: user?.name ?? null };
  }

  async signIn() {
    await login(this.ctx, USERS[String(this.ctx.query["user"] ?? "1")]);
    return { id: sessionId(this.ctx) ?? null };
  }

  async signOut() {
    await logout(this.ctx);
    return { id: sessionId(this.ctx) ?? null };
  }
}

type Read = { value: string | null; id: string | null; user: string | null };

function cloneClient(client: HttpClient): HttpClient {
  const copy = new HttpClient(client.base);
  for (const [name, value] of client.cookies) copy.cookies.set(name, value);
  return copy;
}

/** Runs the shared suite against one store. */
export function runSessionStoreSuite(store: StoreCase): void {
  describe(`session store: ${store.name}`, { skip: store.skip ?? false }, () => {
    let url: string;
    let app: TestApp;
    let short: TestApp;
    const apps: TestApp[] = [];
    const start = async (security: Record<string, unknown> = {}) => {
      const started = await startApp({
        views: { Index },
        security: { sessionUrl: url, sessionSweepInterval: 0, ...store.security?.(), ...security },
      });
      apps.push(started);
      return started;
    };

    before(async () => {
      await store.before?.();
      url = await store.url();
      app = await start();
      short = await start({ sessionMaxAge: 1 });
    });

    after(async () => {
      for (const started of apps) await started.close();
      await store.after?.();
    });

    test("a value set in one request is read in the next, with the cookie flags of docs/security.md", async () => {
      const client = new HttpClient(app.url);
      const set = await client.get("/set-value?value=apple");
      assert.equal(set.status, 200);
      const cookie = set.setCookies.find((c) => c.name === "session");
      assert.ok(cookie, "a session cookie is set");
      assert.ok("httponly" in cookie.attributes, "HttpOnly");
      assert.equal(cookie.attributes["samesite"]?.toLowerCase(), "lax");
      assert.ok(!("secure" in cookie.attributes), "not Secure outside production");
      assert.match(cookie.value, /\.[A-Za-z0-9_-]{43}$/, "the value carries an HMAC-SHA256 signature");
      const read = (await client.get("/read-value")).json<Read>();
      assert.equal(read.value, "apple");
      if (store.rawExists) assert.ok(read.id && (await store.rawExists(read.id)), "the store holds the session");
    });

    test("another app process sharing the store reads the same session", {
      skip: store.notApplicable?.sharedAcrossApps ?? false,
    }, async () => {
      const client = new HttpClient(app.url);
      await client.get("/set-value?value=shared");
      const other = await start();
      const onOther = new HttpClient(other.url);
      for (const [name, value] of client.cookies) onOther.cookies.set(name, value);
      assert.equal((await onOther.get("/read-value")).json<Read>().value, "shared");
    });

    test("a session past its max age is gone, and the store cleans it up", async () => {
      const client = new HttpClient(short.url);
      await client.get("/set-value?value=ephemeral");
      const first = (await client.get("/read-value")).json<Read>();
      assert.equal(first.value, "ephemeral");
      await new Promise((resolve) => setTimeout(resolve, 1300));
      const later = (await client.get("/read-value")).json<Read>();
      assert.equal(later.value, null, "an expired session reads as a fresh one");
      if (store.rawExists && first.id) {
        if (store.cleanup === "sweep") {
          assert.ok(await store.rawExists(first.id), "the expired record is still there before the sweep");
          assert.ok((await short.plugin.sweepSessions()) >= 1, "the sweep removes at least the expired session");
        }
        assert.equal(await store.rawExists(first.id), false, "the expired record is gone");
      }
    });

    test("logout destroys the session: the old id is gone and the old cookie opens nothing", async () => {
      const client = new HttpClient(app.url);
      await client.get("/sign-in?user=1");
      await client.get("/set-value?value=secret");
      const before = (await client.get("/read-value")).json<Read>();
      assert.equal(before.user, "alice");
      const old = cloneClient(client);
      const out = await client.get("/sign-out");
      assert.equal(out.status, 200);
      const after = (await client.get("/read-value")).json<Read>();
      assert.deepEqual([after.user, after.value], [null, null]);
      if (store.rawExists && before.id) {
        assert.notEqual(after.id, before.id);
        assert.equal(await store.rawExists(before.id), false, "the logged-out session is deleted from the store");
        const replay = (await old.get("/read-value")).json<Read>();
        assert.deepEqual([replay.user, replay.value], [null, null], "a replayed pre-logout cookie opens nothing");
      }
    });

    test("login regenerates the session: new id and cookie, data kept, the pre-login session is dead", async () => {
      const client = new HttpClient(app.url);
      await client.get("/set-value?value=cart");
      const anonymous = (await client.get("/read-value")).json<Read>();
      const cookieBefore = client.cookies.get("session");
      const old = cloneClient(client);
      const signIn = (await client.get("/sign-in?user=2")).json<{ id: string | null }>();
      assert.notEqual(client.cookies.get("session"), cookieBefore, "the session cookie changes at login");
      const now = (await client.get("/read-value")).json<Read>();
      assert.deepEqual([now.user, now.value], ["bob", "cart"]);
      if (store.rawExists && anonymous.id) {
        assert.ok(signIn.id && signIn.id !== anonymous.id, "the session id changes at login");
        assert.equal(now.id, signIn.id);
        assert.equal(await store.rawExists(anonymous.id), false, "the pre-login id is deleted from the store");
      }
      const fixated = (await old.get("/read-value")).json<Read>();
      assert.equal(fixated.user, null, "the pre-login cookie is not logged in");
    });
  });
}

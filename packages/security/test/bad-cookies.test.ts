/**
 * Bad input in cookies: forged, truncated, oversized, re-signed with another key, or signed but
 * malformed session cookies are ignored (the request gets a fresh session), never a 500. The same
 * holds for the remember-me cookie.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { currentUser, getSession, login } from "../src/index.js";
import { createSigner, newSessionId } from "../src/plugin-api.js";
import { startApp, USERS, View, type TestApp } from "./helpers/app.js";
import { HttpClient } from "@fwkit/test-servers";

const SECRET = "test-secret-key-0123456789abcdef";

class Index extends View {
  setValue() {
    getSession(this.ctx).value = "mine";
    return { ok: true };
  }

  readValue() {
    return { value: getSession(this.ctx).value ?? null, user: currentUser<{ name: string }>(this.ctx)?.name ?? null };
  }

  async signIn() {
    await login(this.ctx, USERS["1"], { remember: true });
    return { ok: true };
  }
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

for (const sessionUrl of ["cookie", "memory:"]) {
  describe(`bad session cookies (${sessionUrl} sessions)`, () => {
    let app: TestApp;
    let valid: string;
    before(async () => {
      app = await startApp({ views: { Index }, security: { sessionUrl } });
      const client = new HttpClient(app.url);
      await client.get("/set-value");
      valid = client.cookies.get("session")!;
      assert.equal((await client.get("/read-value")).json().value, "mine");
    });
    after(() => app.close());

    const cookieSigner = createSigner([SECRET], sessionUrl === "cookie" ? "session-cookie" : "session-id");
    const cases: Array<[string, () => string]> = [
      [
        "forged (made-up data, made-up signature)",
        () => `${b64({ value: "evil" })}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`,
      ],
      ["unsigned", () => b64({ value: "evil" })],
      [
        "signed with another secret key",
        () => createSigner(["another-secret"], "session-cookie").sign(b64({ value: "evil" })),
      ],
      ["truncated", () => valid.slice(0, -5)],
      ["cut in the middle", () => valid.slice(0, Math.floor(valid.length / 2))],
      ["oversized (8 KB)", () => `${"A".repeat(8000)}.${valid.split(".").pop()}`],
      ["not base64 at all", () => "%%%;;;{{{"],
      ["a signed payload that is not JSON", () => cookieSigner.sign("bm90IGpzb24")],
      ["a signed payload that is a JSON array", () => cookieSigner.sign(b64([1, 2, 3]))],
      ["a signed payload that is JSON null", () => cookieSigner.sign(b64(null))],
      ["a signed id of a session that does not exist", () => createSigner([SECRET], "session-id").sign(newSessionId())],
      ["a signed id in the wrong shape", () => createSigner([SECRET], "session-id").sign("../../etc/passwd")],
    ];
    for (const [name, make] of cases) {
      test(`${name}: ignored, fresh session, not a 500`, async () => {
        const client = new HttpClient(app.url);
        client.cookies.set("session", make());
        const response = await client.get("/read-value");
        assert.equal(response.status, 200, response.text);
        assert.deepEqual(response.json(), { value: null, user: null });
        const set = await client.get("/set-value");
        assert.equal(set.status, 200, "a fresh session can be written after a bad cookie");
        assert.equal((await client.get("/read-value")).json().value, "mine");
      });
    }

    test("a forged or tampered remember-me cookie logs nobody in and is cleared", async () => {
      const client = new HttpClient(app.url);
      await client.get("/sign-in");
      const remember = client.cookies.get("remember_token")!;
      assert.ok(remember, "login with remember sets the remember-me cookie");
      for (const bad of [
        remember.slice(0, -3),
        `${b64(["1", Date.now() + 1e9, null])}.forged`,
        "garbage",
        "x".repeat(3000),
      ]) {
        const attacker = new HttpClient(app.url);
        attacker.cookies.set("remember_token", bad);
        const response = await attacker.get("/read-value");
        assert.equal(response.status, 200);
        assert.equal(response.json().user, null);
        assert.equal(attacker.cookies.has("remember_token"), false, "the bad cookie is cleared");
      }
    });
  });
}

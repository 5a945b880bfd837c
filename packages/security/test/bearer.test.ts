/**
 * `@bearerAuth` end to end: the claims reach the view on `ctx.state.jwt`; a missing, malformed,
 * expired, tampered, other-key or `alg: none` token gets 401 with `WWW-Authenticate: Bearer`.
 * A bearer-auth POST needs no CSRF token, even beside a session cookie.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { SignJWT } from "jose";
import { bearerAuth, csrfToken, getSession, signJwt } from "../src/index.js";
import { jwtClaims, resolveJwtKeys, resolveSecurityConfig } from "../src/plugin-api.js";
import { post, startApp, View, type TestApp } from "./helpers/app.js";
import { HttpClient } from "@fwkit/test-servers";

@bearerAuth
class Api extends View {
  me() {
    return { sub: jwtClaims(this.ctx)?.sub ?? null, scope: jwtClaims(this.ctx)?.["scope"] ?? null };
  }

  @post
  items() {
    return { created: true };
  }
}

class Index extends View {
  form() {
    return { token: csrfToken(this.ctx) };
  }

  /** Writes the session, so the visitor holds a session cookie (a form page alone stores none). */
  remember() {
    getSession(this.ctx)["seen"] = true;
    return { ok: true };
  }

  @bearerAuth()
  secret() {
    return { sub: jwtClaims(this.ctx)?.sub };
  }
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("bearerAuth", () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ views: { Api, Index } });
  });
  after(() => app.close());

  const call = (path: string, authorization?: string, method = "GET") =>
    new HttpClient(app.url).request(path, {
      method,
      ...(authorization === undefined ? {} : { headers: { Authorization: authorization } }),
    });

  test("a valid token puts its claims on the view", async () => {
    const token = await app.plugin.signJwt({ sub: "u1", scope: "read" });
    assert.deepEqual((await call("/api/me", `Bearer ${token}`)).json(), { sub: "u1", scope: "read" });
    assert.deepEqual(
      (await call("/secret", `bearer ${token}`)).json(),
      { sub: "u1" },
      "the scheme is case-insensitive",
    );
    assert.deepEqual(await app.plugin.verifyJwt(token).then((c) => c.sub), "u1");
  });

  test("no token: 401 with a Bearer challenge", async () => {
    const response = await call("/api/me");
    assert.equal(response.status, 401);
    assert.equal(response.headers.get("www-authenticate"), 'Bearer realm="api"');
    assert.match(response.text, /Authorization: Bearer/);
  });

  test("malformed, expired, tampered, other-key and alg none tokens: 401 with error=invalid_token", async () => {
    const keys = await resolveJwtKeys(
      resolveSecurityConfig({ env: "test", secretKey: "test-secret-key-0123456789abcdef" }),
    );
    const otherKeys = await resolveJwtKeys(resolveSecurityConfig({ env: "test", secretKey: "another-secret" }));
    const good = await signJwt({ sub: "u1" }, keys);
    const [header, , signature] = good.split(".");
    const expired = await new SignJWT({ sub: "u1" })
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(keys.signingKey!);
    const cases: Record<string, string> = {
      "not Bearer": `Basic ${Buffer.from("a:b").toString("base64")}`,
      "empty Bearer": "Bearer ",
      "two tokens": `Bearer ${good} ${good}`,
      "not a JWT": "Bearer not-a-jwt",
      expired: `Bearer ${expired}`,
      tampered: `Bearer ${header}.${b64({ sub: "admin", exp: 9e9 })}.${signature}`,
      "other key": `Bearer ${await signJwt({ sub: "u1" }, otherKeys)}`,
      "alg none": `Bearer ${b64({ alg: "none" })}.${b64({ sub: "admin", exp: 9e9 })}.`,
    };
    for (const [name, authorization] of Object.entries(cases)) {
      const response = await call("/api/me", authorization);
      assert.equal(response.status, 401, name);
      assert.match(
        response.headers.get("www-authenticate") ?? "",
        /^Bearer realm="api", error="invalid_token", error_description="[^"]+"$/,
        name,
      );
      assert.match(response.text, name === "expired" ? /expired/ : /invalid/, name);
    }
  });

  test("a bearer-auth POST needs no CSRF token, even with a session cookie; without a token it is 401, not 403", async () => {
    const client = new HttpClient(app.url);
    await client.get("/remember");
    assert.ok(client.cookies.has("session"));
    const token = await app.plugin.signJwt({ sub: "u1" });
    const created = await client.post("/api/items", { json: {}, headers: { Authorization: `Bearer ${token}` } });
    assert.equal(created.status, 200, created.text);
    assert.equal((await client.post("/api/items", { json: {} })).status, 401);
  });
});

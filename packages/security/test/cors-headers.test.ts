/**
 * CORS (app-wide config and the per-view `@cors` decorator) and security headers (koa-helmet
 * defaults; HSTS, upgrade-insecure-requests and Secure cookies in production).
 */
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { cors, getSession } from "../src/index.js";
import { createSigner, newSessionId } from "../src/plugin-api.js";

const SECRET = "test-secret-key-0123456789abcdef";
import { startApp, View, type TestApp } from "./helpers/app.js";
import { HttpClient } from "@fwkit/test-servers";

class Index extends View {
  index() {
    getSession(this.ctx).visited = true;
    return "<p>home</p>";
  }

  @cors({ origins: ["https://widget.example"], credentials: true, exposeHeaders: ["X-Total"] })
  widget() {
    return { ok: true };
  }

  @cors
  open() {
    return { ok: true };
  }
}

describe("CORS", () => {
  const apps: TestApp[] = [];
  after(async () => {
    for (const app of apps) await app.close();
  });

  test("app-wide: listed origins get the CORS headers, others none; a preflight never touches the session", async () => {
    const app = await startApp({
      views: { Index },
      security: {
        cors: { origins: ["https://app.example"], credentials: true, allowMethods: ["GET", "POST"], maxAge: 600 },
      },
    });
    apps.push(app);
    const client = new HttpClient(app.url);
    const allowed = await client.get("/", { headers: { Origin: "https://app.example" } });
    assert.equal(allowed.headers.get("access-control-allow-origin"), "https://app.example");
    assert.equal(allowed.headers.get("access-control-allow-credentials"), "true");
    assert.match(allowed.headers.get("vary") ?? "", /Origin/);
    const other = await client.get("/", { headers: { Origin: "https://evil.example" } });
    assert.equal(other.headers.get("access-control-allow-origin"), null);
    const preflight = await new HttpClient(app.url).request("/", {
      method: "OPTIONS",
      headers: { Origin: "https://app.example", "Access-Control-Request-Method": "POST" },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-methods"), "GET,POST");
    assert.equal(preflight.headers.get("access-control-max-age"), "600");
    assert.equal(preflight.setCookies.length, 0, "no session for a preflight");
  });

  test("a preflight is answered even while the session store is down (CORS runs before sessions)", async () => {
    const app = await startApp({
      views: { Index },
      security: { sessionUrl: "redis://127.0.0.1:1/0", cors: { origins: ["https://app.example"] } },
    });
    apps.push(app);
    const cookie = `session=${createSigner([SECRET], "session-id").sign(newSessionId())}`;
    const preflight = await new HttpClient(app.url).request("/", {
      method: "OPTIONS",
      headers: { Origin: "https://app.example", "Access-Control-Request-Method": "POST", cookie },
    });
    assert.equal(preflight.status, 204);
    const get = await new HttpClient(app.url).get("/", { headers: { Origin: "https://app.example", cookie } });
    assert.equal(get.status, 503, "the same cookie on a real request does reach the (down) store");
    assert.equal(
      get.headers.get("access-control-allow-origin"),
      "https://app.example",
      "CORS headers survive the error",
    );
  });

  test("per view: @cors(settings) and bare @cors apply to their view only", async () => {
    const app = await startApp({ views: { Index } });
    apps.push(app);
    const client = new HttpClient(app.url);
    const widget = await client.get("/widget", { headers: { Origin: "https://widget.example" } });
    assert.equal(widget.headers.get("access-control-allow-origin"), "https://widget.example");
    assert.equal(widget.headers.get("access-control-allow-credentials"), "true");
    assert.equal(widget.headers.get("access-control-expose-headers"), "X-Total");
    assert.equal(
      (await client.get("/widget", { headers: { Origin: "https://evil.example" } })).headers.get(
        "access-control-allow-origin",
      ),
      null,
    );
    assert.equal(
      (await client.get("/open", { headers: { Origin: "https://any.example" } })).headers.get(
        "access-control-allow-origin",
      ),
      "*",
    );
    assert.equal(
      (await client.get("/", { headers: { Origin: "https://widget.example" } })).headers.get(
        "access-control-allow-origin",
      ),
      null,
      "no app-wide CORS by default",
    );
  });

  test('credentials with origins "*" is refused, in the decorator and in the config', async () => {
    assert.throws(() => cors({ origins: "*", credentials: true }), { code: "E_SECURITY_CONFIG_INVALID" });
    assert.throws(() => cors({ origins: ["https://a.example/path"] }), { code: "E_SECURITY_CONFIG_INVALID" });
    await assert.rejects(startApp({ views: { Index }, security: { cors: { credentials: true } } }), {
      code: "E_SECURITY_CONFIG_INVALID",
    });
  });
});

describe("security headers and production cookies", () => {
  const apps: TestApp[] = [];
  after(async () => {
    for (const app of apps) await app.close();
  });

  test("HTML responses carry helmet's defaults; no HSTS outside production", async () => {
    const app = await startApp({ views: { Index } });
    apps.push(app);
    const response = await new HttpClient(app.url).get("/");
    const csp = response.headers.get("content-security-policy") ?? "";
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /frame-ancestors 'self'/);
    assert.doesNotMatch(csp, /upgrade-insecure-requests/);
    assert.equal(response.headers.get("x-content-type-options"), "nosniff");
    assert.equal(response.headers.get("x-frame-options"), "SAMEORIGIN");
    assert.equal(response.headers.get("strict-transport-security"), null);
  });

  test("in production: HSTS, upgrade-insecure-requests, and a Secure session cookie even when TLS ends at a proxy", async () => {
    const app = await startApp({
      views: { Index },
      config: { env: "production", secretKey: crypto.randomUUID() },
    });
    apps.push(app);
    const response = await new HttpClient(app.url).get("/");
    assert.equal(response.status, 200, response.text);
    assert.match(response.headers.get("strict-transport-security") ?? "", /max-age=\d+/);
    assert.match(response.headers.get("content-security-policy") ?? "", /upgrade-insecure-requests/);
    const cookie = response.setCookies.find((c) => c.name === "session");
    assert.ok(cookie && "secure" in cookie.attributes, "Secure in production");
    assert.ok("httponly" in cookie.attributes);
    assert.equal(cookie.attributes["samesite"]?.toLowerCase(), "lax");
  });

  test("production without a secret key refuses to start", async () => {
    await assert.rejects(startApp({ views: { Index }, config: { env: "production", secretKey: "" } }), {
      code: "E_SECURITY_SECRET_KEY_MISSING",
    });
  });

  test("securityHeaders: false turns the headers off", async () => {
    const app = await startApp({ views: { Index }, security: { securityHeaders: false } });
    apps.push(app);
    assert.equal((await new HttpClient(app.url).get("/")).headers.get("content-security-policy"), null);
  });
});

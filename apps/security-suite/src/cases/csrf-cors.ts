/**
 * CSRF and CORS: every unsafe request is checked for the session's CSRF
 * token whatever registered its route (a class view, a route written by hand on the Koa router, a
 * plugin's own middleware); per-view CORS answers only the origins the view lists, preflight included.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { httpClient, csrfFrom } from "@fwkit/test-servers";
import { BEHIND_TLS } from "../behind-tls.js";
import type { Target } from "../target.js";

const ALLOWED = "https://app.example";
const EVIL = "https://evil.example";

/** Registers the CSRF and CORS cases against the app `target()` returns. */
export function csrfCorsCases(target: () => Target): void {
  /** A victim with a session (they opened the form page), attacked by a cross-site form POST. */
  const victim = async () => {
    const app = target();
    const browser = httpClient(app.url, BEHIND_TLS);
    const page = await browser.send(app.path("/posts/edit"));
    assert.equal(page.status, 200);
    return { app, browser, token: csrfFrom(page.text) };
  };

  test("CSRF: a class view's form POST without the token is refused (403), with it accepted", async () => {
    const { app, browser, token } = await victim();
    assert.equal((await browser.submit(app.path("/posts/edit"), { title: "x" })).status, 403);
    const ok = await browser.submit(app.path("/posts/edit"), { _csrf_token: token });
    assert.equal(ok.status, 200, ok.text.slice(0, 300));
  });

  for (const [what, path] of [
    ["a route written by hand on the host's Koa router", "/raw/koa-route"],
    ["a plugin's own middleware route", "/plugin/action"],
    ["Koa middleware added to the app by hand", "/raw/middleware"],
  ] as const) {
    test(`CSRF fails closed: an unsafe request to ${what} without the token is refused (403)`, async () => {
      const { app, browser } = await victim();
      const mark = await app.markLog();
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        const res = await browser.send(path, {
          method,
          headers: { "content-type": "application/x-www-form-urlencoded", origin: EVIL },
          body: "a=1",
        });
        assert.equal(res.status, 403, `${method} ${path}: ${res.status} ${res.text.slice(0, 200)}`);
        assert.doesNotMatch(res.text, /changed state/);
      }
      await app.markLog();
      assert.doesNotMatch(app.log().slice(mark), /\n\s+at |\\n\s+at /, "a refused request is not an application error");
    });
  }

  test("CSRF: a token from another session is refused", async () => {
    const { app, browser } = await victim();
    const other = await victim();
    assert.equal((await browser.submit(app.path("/posts/edit"), { _csrf_token: other.token })).status, 403);
  });

  test("CORS per view: the listed origin gets Access-Control-Allow-Origin, another origin none", async () => {
    const app = target();
    const allowed = await httpClient(app.url, BEHIND_TLS).send(app.path("/shared"), { headers: { origin: ALLOWED } });
    assert.equal(allowed.headers.get("access-control-allow-origin"), ALLOWED);
    const evil = await httpClient(app.url, BEHIND_TLS).send(app.path("/shared"), { headers: { origin: EVIL } });
    assert.equal(evil.status, 200);
    assert.equal(
      evil.headers.get("access-control-allow-origin"),
      null,
      "an unlisted origin gets no CORS header, never *",
    );
  });

  test("CORS preflight answers with the route's own policy: the listed origin allowed, another refused", async () => {
    const app = target();
    const preflight = (origin: string) =>
      httpClient(app.url, BEHIND_TLS).send(app.path("/shared/save"), {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
      });
    const allowed = await preflight(ALLOWED);
    assert.ok(allowed.status < 400, `preflight from the listed origin: ${allowed.status}`);
    assert.equal(allowed.headers.get("access-control-allow-origin"), ALLOWED);
    assert.match(allowed.headers.get("access-control-allow-methods") ?? "", /POST/);
    const evil = await preflight(EVIL);
    assert.notEqual(evil.headers.get("access-control-allow-origin"), EVIL);
    assert.notEqual(evil.headers.get("access-control-allow-origin"), "*");
  });
}

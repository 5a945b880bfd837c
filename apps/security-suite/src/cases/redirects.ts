/**
 * Open redirects through dot segments: a CSRF-valid refused form whose `_back` is `/.//host` or
 * `/..//host`, or a login whose `next` is, must never answer `Location: //host` (which a browser
 * follows to another site). The target is normalised first and checked after.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { csrfFrom, httpClient } from "@fwkit/test-servers";
import { BEHIND_TLS } from "../behind-tls.js";
import type { Target } from "../target.js";

/** Targets that leave the site once a browser resolves them. */
export const REDIRECT_VECTORS: readonly string[] = Object.freeze([
  "//evil.example",
  "/\\evil.example",
  "https://evil.example/",
  "/.//evil.example",
  "/..//evil.example",
  "/a/..//evil.example",
  "/%2e//evil.example",
  "/%2E%2E//evil.example",
  "/./\\evil.example",
]);

/** True when `location` leaves the app's site once a browser resolves it against the app's URL. */
function leavesSite(app: Target, location: string): boolean {
  return new URL(location, app.url).origin !== new URL(app.url).origin;
}

/** Registers the redirect cases: the generated form's `_back` (both), the login's `next` (fw-b). */
export function redirectCases(target: () => Target): void {
  test("a refused form's _back never redirects off-site, dot segments included", async () => {
    const app = target();
    const visitor = httpClient(app.url, BEHIND_TLS);
    for (const back of REDIRECT_VECTORS) {
      const page = await visitor.send(app.path("/memos/new"));
      assert.equal(page.status, 200, page.text.slice(0, 200));
      const answer = await visitor.submit(app.path("/memos"), {
        _csrf_token: csrfFrom(page.text),
        _back: back,
        title: "",
        body: "b",
      });
      assert.equal(answer.status, 303, `${back}: ${answer.status}`);
      const location = answer.headers.get("location") ?? "";
      assert.ok(!leavesSite(app, location), `_back ${JSON.stringify(back)} answered Location ${location}`);
    }
  });

  test("the login's next never redirects off-site, dot segments included", async (t) => {
    const app = target();
    if (app.framework !== "fw-b") return t.skip("fw-a has no login pages of its own");
    // An address of its own, and a name per try: the failed-login counters of other cases stay untouched.
    const headers = { "x-forwarded-for": "203.0.113.251" };
    for (const [i, next] of REDIRECT_VECTORS.entries()) {
      const visitor = httpClient(app.url, BEHIND_TLS);
      const page = await visitor.send(`/login?next=${encodeURIComponent(next)}`, { headers });
      assert.equal(page.status, 200);
      for (const [, value] of page.text.matchAll(/name="next" value="([^"]*)"/g)) {
        const carried = value!.replace(/&amp;/g, "&").replace(/&#x2F;|&#47;/g, "/");
        assert.ok(!leavesSite(app, carried), `the login form carries next ${JSON.stringify(carried)}`);
      }
      // A refused login keeps next for the retry: the form it goes back to must not carry it either.
      const refused = await visitor.submit(
        "/login",
        { _csrf_token: csrfFrom(page.text), identifier: `nobody-${i}`, password: "wrong-password-1", next },
        headers,
      );
      assert.equal(refused.status, 303, `next ${JSON.stringify(next)}: ${refused.status}`);
      const location = refused.headers.get("location") ?? "";
      assert.ok(!leavesSite(app, location), `next ${JSON.stringify(next)} answered Location ${location}`);
    }
  });
}

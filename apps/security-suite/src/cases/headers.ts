/**
 * Security headers of an HTML page in production (ASVS level 2, V14.4):
 * a Content-Security-Policy, no MIME sniffing, no framing by other sites, HSTS, a referrer policy,
 * and no header that names the server's software.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { httpClient } from "@fwkit/test-servers";
import { BEHIND_TLS } from "../behind-tls.js";
import type { Target } from "../target.js";

/** Registers the header cases against the app `target()` returns. */
export function headerCases(target: () => Target): void {
  test("an HTML page in production sends CSP, nosniff, frame protection, HSTS and a referrer policy", async () => {
    const app = target();
    const res = await httpClient(app.url, BEHIND_TLS).send(app.path("/posts/edit"));
    assert.equal(res.status, 200);
    const h = res.headers;
    assert.ok(h.get("content-security-policy"), "Content-Security-Policy");
    assert.equal(h.get("x-content-type-options"), "nosniff");
    assert.ok(
      /sameorigin|deny/i.test(h.get("x-frame-options") ?? "") ||
        /frame-ancestors/.test(h.get("content-security-policy") ?? ""),
      "framing by other sites is refused",
    );
    assert.match(h.get("strict-transport-security") ?? "", /max-age=\d+/, "HSTS in production");
    assert.ok(h.get("referrer-policy"), "Referrer-Policy");
    assert.equal(h.get("x-powered-by"), null, "no X-Powered-By");
  });
}

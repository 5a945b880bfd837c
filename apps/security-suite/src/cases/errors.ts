/**
 * Probes that must get a clear 4xx and leave the error log clean (bad
 * input is a 4xx): path traversal against the static files, CR/LF in redirect targets, and
 * malformed input. A stack trace in the log for any of them is a failure: a probe is not an error
 * of the app.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { httpClient } from "@fwkit/test-servers";
import { BEHIND_TLS } from "../behind-tls.js";
import type { Target } from "../target.js";

/** Traversal probes an attacker sends at a static folder. */
const TRAVERSALS = [
  "/static/../../../../etc/passwd",
  "/static/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
  "/static/..%2f..%2f..%2fetc%2fpasswd",
  "/static/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
  "/static/..%5c..%5c..%5cwindows%5cwin.ini",
  "/static/foo%00.css",
];

/** What a stack trace looks like in a log line (pino's `err.stack` or a printed one). */
const STACK = /\n\s+at |\\n\s+at |TypeError|ReferenceError/;

/** Registers the probe cases against the app `target()` returns. */
export function errorCases(target: () => Target): void {
  /** The log from `mark` on, once every request sent so far has been logged. */
  const logAfter = async (app: Target, mark: number) => {
    await app.markLog();
    return app.log().slice(mark);
  };

  test("/readyz, public to any client, names each part and its state, never an address, a URL or a user", async () => {
    const app = target();
    const res = await fetch(`${app.url}/readyz`);
    const text = await res.text();
    const body = JSON.parse(text) as { status?: string; checks?: Record<string, string> };
    assert.equal(typeof body.checks, "object", text);
    assert.ok(
      Object.values(body.checks ?? {}).every((state) => ["ok", "down", "pending"].includes(state)),
      text,
    );
    assert.doesNotMatch(
      text,
      /:\/\/|@|127\.0\.0\.1|localhost|\d+\.\d+\.\d+\.\d+|:\d{2,5}\b/,
      "no URL, user, host or port",
    );
  });

  test("path traversal probes at the static folder answer 400 and write no stack trace to the log", async () => {
    const app = target();
    const mark = await app.markLog();
    for (const probe of TRAVERSALS) {
      // fetch would normalise the dots away; the request line must carry them as an attacker sends them.
      const res = await rawGet(app.url, probe);
      assert.equal(res.status, 400, `${probe}: ${res.status} ${res.body.slice(0, 200)}`);
      assert.doesNotMatch(res.body, /root:x:0:0/);
    }
    assert.doesNotMatch(await logAfter(app, mark), STACK, "a traversal probe is not an application error");
  });

  test("CR/LF in a redirect target answers 400 (or an encoded Location), never 500 or an injected header", async () => {
    const app = target();
    const mark = await app.markLog();
    for (const to of [
      "/%0d%0aSet-Cookie:%20injected=1",
      "/ok%0aX-Injected:%201",
      "%0d%0a%0d%0a<script>alert(1)</script>",
    ]) {
      const res = await httpClient(app.url, BEHIND_TLS).send(`${app.path("/posts/go")}?to=${to}`);
      assert.ok(res.status === 400 || (res.status >= 300 && res.status < 400), `to=${to}: ${res.status}`);
      assert.equal(res.headers.get("x-injected"), null);
      assert.ok(!res.headers.getSetCookie().some((line) => line.startsWith("injected=")), "no injected cookie");
      assert.doesNotMatch(res.headers.get("location") ?? "", /[\r\n]/);
    }
    assert.doesNotMatch(await logAfter(app, mark), STACK);
  });

  test("bad input gets a 4xx with a message, never a 500: broken percent-encoding, malformed JSON, absurd query values", async () => {
    const app = target();
    const mark = await app.markLog();
    const checks: [string, RequestInit | undefined][] = [
      [`${app.path("/posts")}%E0%A4%A`, undefined],
      [`${app.path("/posts/search")}?q=%E0%A4%A`, undefined],
      [`${app.path("/posts/search")}?q[$gt]=&q[__proto__][x]=1`, undefined],
      [
        app.path("/shared/save"),
        {
          method: "POST",
          headers: { "content-type": "application/json", authorization: "Bearer x" },
          body: "{bad json",
        },
      ],
      [
        app.path("/posts/edit"),
        { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "a=%" },
      ],
    ];
    for (const [path, init] of checks) {
      const res = await httpClient(app.url, BEHIND_TLS).send(path, init);
      assert.ok(
        (res.status >= 400 && res.status < 500) || res.status === 200,
        `${path}: ${res.status} ${res.text.slice(0, 200)}`,
      );
      if (res.status >= 400) assert.ok(res.text.trim().length > 0, `${path}: a 4xx says what is wrong`);
    }
    assert.doesNotMatch(await logAfter(app, mark), STACK);
  });
}

/** A GET whose request line is sent exactly as written (no URL normalisation). */
async function rawGet(base: string, path: string): Promise<{ status: number; body: string }> {
  const { request } = await import("node:http");
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, method: "GET", headers: { "x-forwarded-proto": "https" } },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

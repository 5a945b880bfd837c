// Issue 14.7: error pages for requests that never reached the session middleware (static-file
// traversal probes answered in the host's first layer) rendered the flash locals, which read
// `ctx.session`, which crashed in the session code: every probe logged a stack trace.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { rawGet, requireServer, serverSkip } from "@fwkit/test-servers";
import { startApp, type StartedApp } from "./helpers.js";

const PROBES = ["/static/../x", "/static/%2e%2e/x", "/static/..%2fx", "/static/%2e%2e%2fpackage.json", "/static/site.css%00", "/static/%ZZ"];

describe("fw-b error pages before the session middleware (batteries on, Redis sessions)", serverSkip, () => {
  let app: StartedApp;
  const logged: string[] = [];
  before(async () => {
    const redis = await requireServer("redis");
    app = await startApp({
      config: { batteries: { security: true, data: true, services: true }, sessionUrl: `${redis}?prefix=fwb-before-session:` },
    });
    // One request through the session middleware first: koa-session puts `ctx.session` on the
    // app's context only then, and from then on every request sees it.
    await fetch(`${app.url}/nothing-here`);
    const logger = app.host.logger as unknown as Record<string, unknown>;
    for (const level of ["error", "warn", "fatal"]) {
      logger[level] = (obj: { err?: { stack?: string } }, message: string) => logged.push(`${level}: ${message} ${obj?.err?.stack ?? ""}`);
    }
  });
  after(() => app.close());

  test("traversal probes answer 400 with a page and the log has no stack trace", async () => {
    for (const probe of PROBES) {
      const res = await rawGet(app.url, probe, { accept: "text/html" });
      assert.equal(res.status, 400, probe);
      assert.match(String(res.headers["content-type"]), /text\/html/, probe);
      assert.match(res.body, /400/, probe);
    }
    assert.deepEqual(logged, []);
  });

  test("a probe carrying a session cookie neither crashes nor sets a cookie", async () => {
    const res = await rawGet(app.url, "/static/%2e%2e/x", { cookie: "session=abc.def" });
    assert.equal(res.status, 400);
    assert.equal(res.headers["set-cookie"], undefined);
    assert.deepEqual(logged, []);
  });
});

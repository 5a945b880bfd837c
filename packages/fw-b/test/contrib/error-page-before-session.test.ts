// Error pages before the session middleware, with contrib's styled error pages: their layout asks for csrf_token() (the logout
// form), which threw for a request that never reached the session middleware (a static-file
// probe), so every probe logged a stack trace and fell back to the built-in page.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { rawGet } from "@fwkit/test-servers";
import { startContribApp, type ContribApp } from "./fixture.js";

describe("contrib error pages before the session middleware", () => {
  let app: ContribApp;
  const logged: string[] = [];
  before(async () => {
    app = await startContribApp();
    await fetch(`${app.url}/login`);
    const logger = app.host.logger as unknown as Record<string, unknown>;
    for (const level of ["error", "warn", "fatal"]) {
      logger[level] = (obj: { err?: { stack?: string } }, message: string) =>
        logged.push(`${level}: ${message} ${obj?.err?.stack ?? ""}`);
    }
  });
  after(() => app.close());

  test("traversal probes get contrib's 400 page and the log stays empty", async () => {
    for (const probe of ["/static/../x", "/static/%2e%2e/x", "/static/..%2fx"]) {
      const res = await rawGet(app.url, probe, { accept: "text/html" });
      assert.equal(res.status, 400, probe);
      assert.match(String(res.headers["content-type"]), /text\/html/);
    }
    assert.deepEqual(logged, []);
  });
});

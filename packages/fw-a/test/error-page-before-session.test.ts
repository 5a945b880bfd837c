// Issue 14.7: error pages for requests that never reached the session middleware (static-file
// traversal probes answered in the host's first layer) rendered the flash locals, which read
// `ctx.session`, which crashed in the session code: every probe logged a stack trace.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { rawGet, requireServer, serverSkip } from "@fwkit/test-servers";
import { createApp, type Host } from "../src/index.js";
import { listenForTest } from "../src/testing/index.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const PROBES = ["/static/../x", "/static/%2e%2e/x", "/static/..%2fx", "/static/%2e%2e%2fpackage.json", "/static/site.txt%00", "/static/%ZZ"];

describe("fw-a error pages before the session middleware (batteries on, Redis sessions)", serverSkip, () => {
  let app: Host;
  let url = "";
  let root = "";
  const logged: string[] = [];
  before(async () => {
    // The secure app plus an error page that shows flash messages, as a real layout does (inside
    // the package, so its views still import "fw-a").
    root = mkdtempSync(join(here, ".tmp-error-page-"));
    cpSync(join(here, "secure-app"), root, { recursive: true });
    writeFileSync(join(root, "templates", "error.html"), "<h1>{{ status }} {{ title }}</h1>{% for m in flash_messages %}<p>{{ m.message }}</p>{% endfor %}<p>{{ message }}</p>\n");
    const redis = await requireServer("redis");
    app = await createApp({
      root,
      auth: { loadUser: () => undefined },
      config: { env: "test", logRequests: false, dbUrl: "sqlite::memory:", sessionUrl: `${redis}?prefix=fwa-before-session:` },
    });
    url = (await listenForTest(app)).url;
    // One request through the session middleware first: koa-session puts `ctx.session` on the
    // app's context only then, and from then on every request sees it.
    await fetch(`${url}/nothing-here/`);
    const logger = app.logger as unknown as Record<string, unknown>;
    for (const level of ["error", "warn", "fatal"]) {
      logger[level] = (obj: { err?: { stack?: string } }, message: string) => logged.push(`${level}: ${message} ${obj?.err?.stack ?? ""}`);
    }
  });
  after(async () => {
    await app?.close();
    rmSync(root, { recursive: true, force: true });
  });

  test("traversal probes answer 400 with a page and the log has no stack trace", async () => {
    for (const probe of PROBES) {
      const res = await rawGet(url, probe, { accept: "text/html" });
      assert.equal(res.status, 400, probe);
      assert.match(String(res.headers["content-type"]), /text\/html/, probe);
      assert.match(res.body, /400/, probe);
    }
    assert.deepEqual(logged, []);
  });

  test("a probe carrying a session cookie neither crashes nor sets a cookie", async () => {
    const res = await rawGet(url, "/static/%2e%2e/x", { cookie: "session=abc.def" });
    assert.equal(res.status, 400);
    assert.equal(res.headers["set-cookie"], undefined);
    assert.deepEqual(logged, []);
  });
});

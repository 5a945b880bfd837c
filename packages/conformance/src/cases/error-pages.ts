import assert from "node:assert/strict";
import { test } from "node:test";
import type { ConformanceSecurity, ConformanceServer } from "../adapter.js";
import type { ViewModule } from "routing-kernel";
import type { SuiteContext } from "../suite.js";
import { expectStatus } from "../suite.js";

const TITLE = "error pages before the session middleware";
/** Static-file traversal probes, answered in the host's first layer, before the session. */
const PROBES = [
  "/static/../x",
  "/static/%2e%2e/x",
  "/static/..%2fx",
  "/static/%2e%2e%2fpackage.json",
  "/static/site.txt%00",
  "/static/%ZZ",
];

/**
 * An error page for a request that never reached the session middleware (a traversal
 * probe) rendered the flash locals, which read `ctx.session`, which crashed in the session code of
 * an external store: every probe logged a stack trace. Served with the security and data batteries,
 * sessions in the adapter's session store (Redis) and an error page that lists flash messages.
 */
export function errorPageCases(s: SuiteContext): void {
  const security: ConformanceSecurity | undefined = s.adapter.security;
  if (!security?.sessionStore) {
    const why = security
      ? "declares no session store (sessionStore) in its security part"
      : "declares no security part in its adapter";
    test(`${TITLE}: not run`, { skip: `${s.adapter.name} ${why}` }, () => {});
    return;
  }
  const store = security.sessionStore;
  const start = async (modules: ViewModule[]): Promise<ConformanceServer> => {
    const config = {
      batteries: { data: true },
      dbUrl: "sqlite::memory:",
      sessionUrl: `${await store()}?prefix=conformance-before-session:`,
    };
    return security.start(modules, { config, files: { "static/site.txt": "site\n" }, flashErrorPage: true });
  };
  class Home extends s.adapter.Base {
    index() {
      return "home";
    }
  }

  s.group(
    TITLE,
    () => [{ name: "conformance/error-pages", exports: { Home } }],
    (t) => {
      t("traversal probes answer 400 with a page and the log has no stack trace", async (c) => {
        // One request through the session middleware first: koa-session puts `ctx.session` on the
        // app's context only then, and from then on every request sees it.
        await c.get(s.p("/nothing-here"));
        const before = logOf(c.logged()).length;
        for (const probe of PROBES) {
          const res = await c.get(probe, { headers: { accept: "text/html" } });
          expectStatus(res, 400, probe);
          assert.equal(res.type, "text/html", probe);
          assert.match(res.text, /400/, probe);
        }
        assert.deepEqual(logOf(c.logged()).slice(before), []);
      });
      t("a probe carrying a session cookie neither crashes nor sets a cookie", async (c) => {
        await c.get(s.p("/nothing-here"));
        const before = logOf(c.logged()).length;
        const res = await c.get("/static/%2e%2e/x", { headers: { cookie: "session=abc.def" } });
        expectStatus(res, 400, "probe with a cookie");
        assert.equal(res.headers["set-cookie"], undefined);
        assert.deepEqual(logOf(c.logged()).slice(before), []);
      });
    },
    start,
  );
}

/** The app's log, which the adapter must record for these cases. */
function logOf(logged: readonly string[] | undefined): readonly string[] {
  assert.ok(logged, "the adapter's security.start records the log (ConformanceServer.logged)");
  return logged;
}

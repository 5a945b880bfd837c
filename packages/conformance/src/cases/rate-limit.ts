import assert from "node:assert/strict";
import { test } from "node:test";
import type { ViewModule } from "routing-kernel";
import type { ClassOrMethodDecoratorLike, ConformanceSecurity, ConformanceServer } from "../adapter.js";
import { send } from "../client.js";
import type { SuiteContext } from "../suite.js";

const TITLE = "rate limits (@rateLimit)";

/**
 * The rate-limit decorator both frameworks map onto the security battery's rule: the request after
 * `max` in a window answers 429 with `Retry-After` and a message, as JSON on a data route and as
 * the error page on an HTML route; other clients' keys are not affected; with Redis the counters
 * are shared by two app instances.
 */
export function rateLimitCases(s: SuiteContext): void {
  const security = s.adapter.security;
  if (!security?.rateLimit) {
    const why = security
      ? "declares no rateLimit decorator in its security part"
      : "declares no security part in its adapter";
    test(`${TITLE}: not run`, { skip: `${s.adapter.name} ${why}` }, () => {});
    return;
  }
  const part: ConformanceSecurity = security;
  const limit = security.rateLimit as (options: Record<string, unknown>) => ClassOrMethodDecoratorLike;
  const { Base, decorators: d } = s.adapter;
  const keyOf = (ctx: { get(name: string): string }) => ctx.get("x-test-key") || undefined;

  class Limited extends Base {
    @d.json @limit({ max: 2, window: "1m" }) data() {
      return { ok: true };
    }
    @limit({ max: 2, window: "1m" }) page() {
      return "<p>page</p>";
    }
    @d.json @limit({ max: 1, window: "1h", by: keyOf }) keyed() {
      return { ok: true };
    }
  }
  const modules = (): ViewModule[] => [{ name: "conformance/limits", exports: { Limited } }];

  s.group(
    TITLE,
    modules,
    (t) => {
      t("a data route answers 429 in JSON with Retry-After and a message once its limit is used up", async (c) => {
        for (let i = 0; i < 2; i++) assert.equal((await c.get(s.p("/limited/data"))).status, 200);
        const refused = await c.get(s.p("/limited/data"));
        assert.equal(refused.status, 429, refused.text);
        const retry = Number(refused.headers["retry-after"]);
        assert.ok(
          Number.isInteger(retry) && retry >= 1 && retry <= 60,
          `Retry-After in seconds within the window: ${retry}`,
        );
        assert.match(refused.type, /json/);
        assert.match(refused.text, /Too many requests\. Try again in \d+ seconds?\./);
      });
      t("an HTML route answers 429 with the error page and Retry-After", async (c) => {
        for (let i = 0; i < 2; i++) assert.equal((await c.get(s.p("/limited/page"))).status, 200);
        const refused = await c.get(s.p("/limited/page"), { headers: { accept: "text/html" } });
        assert.equal(refused.status, 429, refused.text);
        assert.ok(refused.headers["retry-after"], "Retry-After is sent");
        assert.match(refused.type, /html/);
        assert.match(refused.text, /Too many requests\. Try again in \d+ seconds?\./);
      });
      t("a limit by a key of the app's counts each key on its own", async (c) => {
        assert.equal((await c.get(s.p("/limited/keyed"), { headers: { "x-test-key": "a" } })).status, 200);
        assert.equal((await c.get(s.p("/limited/keyed"), { headers: { "x-test-key": "a" } })).status, 429);
        assert.equal((await c.get(s.p("/limited/keyed"), { headers: { "x-test-key": "b" } })).status, 200);
      });
    },
    (served) => part.start(served),
  );

  if (!part.sessionStore) {
    test(`${TITLE}, shared in Redis: not run`, {
      skip: `${s.adapter.name} declares no session store (sessionStore) in its security part`,
    }, () => {});
    return;
  }
  const store = part.sessionStore;
  test(`${TITLE}: with Redis configured, two app instances share the counters`, async () => {
    const prefix = `conformance-limits-${s.adapter.name}-${process.pid}-${Date.now().toString(36)}:`;
    const config = { loginLimitUrl: `${await store()}?prefix=${encodeURIComponent(prefix)}` };
    const servers: ConformanceServer[] = [];
    try {
      servers.push(await part.start(modules(), { config }), await part.start(modules(), { config }));
      const [first, second] = servers as [ConformanceServer, ConformanceServer];
      assert.equal((await send(first.url, "GET", s.p("/limited/data"))).status, 200);
      assert.equal((await send(second.url, "GET", s.p("/limited/data"))).status, 200);
      const refused = await send(first.url, "GET", s.p("/limited/data"));
      assert.equal(refused.status, 429, "the second instance's request counted on the first");
      assert.ok(refused.headers["retry-after"]);
    } finally {
      for (const server of servers) await server.close();
    }
  });
}

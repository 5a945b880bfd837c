import assert from "node:assert/strict";
import { test } from "node:test";
import type { ClassOrMethodDecoratorLike, ConformanceHandler, ConformanceSecurity } from "../adapter.js";
import type { ClientResponse } from "../client.js";
import { textHandler } from "../handlers.js";
import { Jar } from "../jar.js";
import type { GroupClient, SuiteContext } from "../suite.js";
import { adapterPart, expectStatus } from "../suite.js";

const TITLE = "CSRF fails closed, whatever registered the route";
const CORS_TITLE = "a per-view CORS policy (docs/security.md)";
const X = "https://x.example";
const EVIL = "https://evil.example";
const APP = "https://app.example";

/** The answers outside the views: a hand-written route, app middleware and a plugin's middleware. */
const HANDLERS: readonly ConformanceHandler[] = [
  textHandler("router", "POST", "/raw/act", "raw acted"),
  textHandler("router", "POST", "/raw/hook", "raw hooked"),
  textHandler("middleware", "DELETE", "/mw/act", "middleware acted"),
  textHandler("plugin", "POST", "/plugin/act", "plugin acted"),
  textHandler("plugin", "POST", "/plugin/hooks/stripe", "plugin acted"),
];
const CONFIG = { csrfExemptPaths: ["/raw/hook", "/plugin/hooks/*"] };

/** The `access-control-allow-origin` a response carries (null without one). */
const allowOrigin = (response: ClientResponse): string | null => {
  const value = response.headers["access-control-allow-origin"];
  return value === undefined ? null : String(value);
};

/**
 * Every unsafe request is CSRF-checked whatever
 * registered its route (a class view, a hand-written route, app middleware, a plugin, a mounted
 * app) unless explicitly exempt; what the dispatcher answers itself keeps its status; a refused
 * JSON view answers in JSON; a per-view CORS policy restricts, answers its preflights and replaces
 * the app-wide policy for its route.
 */
export function csrfRouteCases(s: SuiteContext): void {
  const part = adapterPart(s, "security", TITLE);
  if (!part) return;
  const security: ConformanceSecurity = part;
  const { Base, decorators: d } = s.adapter;
  const noCors = `${s.adapter.name} declares no cors decorator in its security part`;
  const cors: (settings: { origin: string }) => ClassOrMethodDecoratorLike = security.cors ?? (() => (value) => value);

  class Index extends Base {
    token() {
      return security.csrfToken(this);
    }
    @d.post save() {
      return "saved";
    }
    @d.post @security.csrfExempt hook() {
      return "hooked";
    }
  }
  @d.json
  @cors({ origin: X })
  class Api extends Base {
    index() {
      return { ok: true };
    }
    @d.put replace() {
      return { replaced: true };
    }
  }
  class Sub extends Base {
    token() {
      return security.csrfToken(this);
    }
    @d.post act() {
      return "sub acted";
    }
  }
  class Page extends Base {
    index() {
      return "page";
    }
  }

  const unsafe: ReadonlyArray<[string, string, string]> = [
    ["a class view", "POST", s.p("/save")],
    ["a hand-written route on the host's router", "POST", "/raw/act"],
    ["app middleware added with koa.use", "DELETE", "/mw/act"],
    ["a plugin's middleware", "POST", "/plugin/act"],
    ["a mounted app's view", "POST", s.p("/sub/sub/act")],
    ["a path nothing answers", "POST", "/nothing/here"],
  ];

  s.group(
    TITLE,
    () => [{ name: "conformance/csrf", exports: { Index, Api } }],
    (t) => {
      for (const [how, method, path] of unsafe) {
        t(
          `CSRF fails closed for ${how}: 403 naming the token without it, passes with the session's token`,
          async (c) => {
            const jar = new Jar();
            const refused = jar.keep(await c.send(method, path, { headers: jar.header() }));
            expectStatus(refused, 403, `${method} ${path} without a token`);
            assert.match(refused.text, /_csrf_token|X-CSRF-Token/, "the refusal names the token's field or header");
            const tokenPath = path.startsWith("/sub/") ? s.p("/sub/sub/token") : s.p("/token");
            const token = jar.keep(await c.get(tokenPath, { headers: jar.header() })).text;
            const passed = await c.send(method, path, { headers: { ...jar.header(), "x-csrf-token": token } });
            assert.notEqual(passed.status, 403, `${method} ${path} with the token: ${passed.text.slice(0, 200)}`);
          },
        );
      }
      t(
        "explicit exemptions pass without a token: the exemption decorator, csrfExemptPaths (exact and /*), bearer-only",
        async (c) => {
          assert.equal((await c.send("POST", s.p("/hook"))).text, "hooked");
          assert.equal((await c.send("POST", "/raw/hook")).text, "raw hooked");
          assert.equal((await c.send("POST", "/plugin/hooks/stripe")).text, "plugin acted");
          assert.equal(
            (await c.send("POST", "/raw/act", { headers: { authorization: "Bearer abc" } })).text,
            "raw acted",
          );
        },
      );
      t("a slash redirect the dispatcher answers itself is not turned into a 403 (308)", async (c) => {
        expectStatus(await c.send("POST", s.twin("/save")), 308, "POST to the non-canonical twin");
      });
      t("a refused JSON view answers in JSON (the route's kind)", async (c) => {
        const res = await c.send("PUT", s.p("/api/replace"));
        expectStatus(res, 403, "PUT without a token");
        assert.match(res.type, /json/);
      });
      corsTests(t, s.p, security.cors ? undefined : noCors);
    },
    (modules) =>
      security.start(modules, {
        config: CONFIG,
        handlers: HANDLERS,
        mount: { path: "/sub", modules: [{ name: "sub", exports: { Sub } }] },
      }),
  );

  if (!security.cors) {
    test(`${CORS_TITLE}: not run`, { skip: noCors }, () => {});
    return;
  }
  s.group(
    CORS_TITLE,
    () => [{ name: "conformance/cors", exports: { Api, Page } }],
    (t) => {
      t("a route without a per-view policy follows the app-wide cors config", async (c) => {
        assert.equal(allowOrigin(await c.get(s.p("/page"), { headers: { origin: APP } })), APP);
        assert.equal(allowOrigin(await c.get(s.p("/page"), { headers: { origin: X } })), null);
      });
      t("a route with a per-view policy answers requests and preflights with its own policy only", async (c) => {
        assert.equal(allowOrigin(await c.get(s.p("/api"), { headers: { origin: X } })), X);
        assert.equal(allowOrigin(await c.get(s.p("/api"), { headers: { origin: APP } })), null);
        const preflight = (origin: string) =>
          c.send("OPTIONS", s.p("/api/replace"), { headers: { origin, "access-control-request-method": "PUT" } });
        assert.equal(allowOrigin(await preflight(X)), X);
        assert.equal(allowOrigin(await preflight(APP)), null);
      });
    },
    (modules) => security.start(modules, { config: { cors: { origins: [APP] } } }),
  );
}

/** The per-view policy of `Api` (`@cors({ origin: X })`), no app-wide policy. */
function corsTests(
  t: (title: string, fn: (c: GroupClient) => Promise<void>) => void,
  p: (path: string) => string,
  skip: string | undefined,
): void {
  const titles = [
    "a per-view cors({ origin }) allows only that origin, not *",
    "the automatic OPTIONS answer of a preflight carries the route's CORS policy",
  ] as const;
  if (skip) {
    for (const title of titles) test(title, { skip }, () => {});
    return;
  }
  t(titles[0], async (c) => {
    assert.equal(allowOrigin(await c.get(p("/api"), { headers: { origin: X } })), X);
    assert.equal(allowOrigin(await c.get(p("/api"), { headers: { origin: EVIL } })), null);
  });
  t(titles[1], async (c) => {
    const preflight = (origin: string) =>
      c.send("OPTIONS", p("/api/replace"), { headers: { origin, "access-control-request-method": "PUT" } });
    const allowed = await preflight(X);
    expectStatus(allowed, 204, "preflight from the allowed origin");
    assert.equal(allowOrigin(allowed), X);
    assert.match(String(allowed.headers["access-control-allow-methods"] ?? ""), /PUT/);
    const other = await preflight(EVIL);
    assert.equal(allowOrigin(other), null);
    assert.match(String(other.headers["allow"] ?? ""), /PUT/);
  });
}

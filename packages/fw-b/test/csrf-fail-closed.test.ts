/**
 * Issue 14 items 5 and 6 in fw-b: every unsafe request is CSRF-checked whatever registered its
 * route (a class view, a hand-written route on host.router, app middleware, a plugin, a mounted
 * app) unless explicitly exempt; `@cors({ origin })` (the documented form) restricts, answers its
 * preflights, and unknown decorator options are start-up errors.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { HostPlugin } from "@fwkit/koa-host/plugin";
import { csrfToken } from "@fwkit/security";
import { defineApp, FwB, request, type Host } from "../src/index.js";
import { cache, cors, csrfExempt, navTitle, renderJson, route } from "../src/decorators/index.js";
import { admin } from "../src/contrib/index.js";
import { buildTestApp } from "../src/testing/index.js";
import { client } from "./browser-client.js";

const config = { dbUrl: "sqlite::memory:", csrfExemptPaths: ["/raw/hook", "/plugin/hooks/*"] };

class Index extends FwB {
  token() {
    return csrfToken(this.ctx);
  }

  @request.post
  save() {
    return "saved";
  }

  @request.post
  @csrfExempt
  hook() {
    return "hooked";
  }
}

@renderJson
@cors({ origin: "https://x.example" })
class Api extends FwB {
  index() {
    return { ok: true };
  }

  @request.put
  replace() {
    return { replaced: true };
  }
}

class Sub extends FwB {
  token() {
    return csrfToken(this.ctx);
  }

  @request.post
  act() {
    return "sub acted";
  }
}

/** A plugin that answers unsafe requests in its own middleware, as a battery may. */
const actionPlugin: HostPlugin = {
  name: "actions",
  middleware: () => [
    (ctx, next) => {
      if (ctx.path === "/plugin/act" || ctx.path.startsWith("/plugin/hooks/")) {
        ctx.body = "plugin acted";
        return;
      }
      return next();
    },
  ],
};

describe("fw-b: CSRF fails closed, whatever registered the route", () => {
  let app: { host: Host; url: string };
  let parent: { host: Host; cleanup(): void };
  let child: { host: Host; cleanup(): void };
  before(async () => {
    child = await buildTestApp([{ name: "sub", exports: { Sub } }], { config, basePath: "/sub" });
    parent = await buildTestApp([{ name: "main", exports: { Index, Api } }], { config, plugins: [actionPlugin] });
    parent.host.mount("/sub", child.host);
    const server = await parent.host.listen(0, "127.0.0.1");
    app = { host: parent.host, url: `http://127.0.0.1:${(server.address() as import("node:net").AddressInfo).port}` };
    app.host.router.post("/raw/act", (ctx) => {
      ctx.body = "raw acted";
    });
    app.host.router.post("/raw/hook", (ctx) => {
      ctx.body = "raw hooked";
    });
    app.host.koa.use((ctx, next) => {
      if (ctx.method === "DELETE" && ctx.path === "/mw/act") {
        ctx.body = "middleware acted";
        return;
      }
      return next();
    });
  });
  after(async () => {
    await parent.host.close();
    parent.cleanup();
    child.cleanup();
  });

  const unsafe: ReadonlyArray<[string, string, string]> = [
    ["a class view", "POST", "/save"],
    ["a hand-written route on host.router", "POST", "/raw/act"],
    ["app middleware added with koa.use", "DELETE", "/mw/act"],
    ["a plugin's middleware", "POST", "/plugin/act"],
    ["a mounted app's view", "POST", "/sub/sub/act"],
    ["a path nothing answers", "POST", "/nothing/here"],
  ];

  for (const [how, method, path] of unsafe) {
    test(`${how}: ${method} ${path} without a token is 403, with the session's token it passes`, async () => {
      const browser = client(app.url);
      const refused = await browser.fetch(path, { method });
      assert.equal(refused.status, 403, `${method} ${path}`);
      const token = await (await browser.fetch(path.startsWith("/sub/") ? "/sub/sub/token" : "/token")).text();
      const passed = await browser.fetch(path, { method, headers: { "x-csrf-token": token } });
      assert.notEqual(passed.status, 403, `${method} ${path} with the token`);
    });
  }

  test("explicit exemptions pass without a token: @csrfExempt, csrfExemptPaths (exact and /*), bearer-only", async () => {
    assert.equal(await (await fetch(`${app.url}/hook`, { method: "POST" })).text(), "hooked");
    assert.equal(await (await fetch(`${app.url}/raw/hook`, { method: "POST" })).text(), "raw hooked");
    assert.equal(await (await fetch(`${app.url}/plugin/hooks/stripe`, { method: "POST" })).text(), "plugin acted");
    assert.equal(await (await fetch(`${app.url}/raw/act`, { method: "POST", headers: { authorization: "Bearer abc" } })).text(), "raw acted");
  });

  test("a refused JSON view answers in JSON (the route's kind)", async () => {
    const res = await fetch(`${app.url}/api/replace`, { method: "PUT" });
    assert.equal(res.status, 403);
    assert.match(res.headers.get("content-type") ?? "", /json/);
  });

  test("@cors({ origin }) allows only that origin, and its preflight answers with the route's policy", async () => {
    const allowed = await fetch(`${app.url}/api`, { headers: { origin: "https://x.example" } });
    assert.equal(allowed.headers.get("access-control-allow-origin"), "https://x.example");
    const other = await fetch(`${app.url}/api`, { headers: { origin: "https://evil.example" } });
    assert.equal(other.headers.get("access-control-allow-origin"), null);
    const preflight = await fetch(`${app.url}/api/replace`, {
      method: "OPTIONS",
      headers: { origin: "https://x.example", "access-control-request-method": "PUT" },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-origin"), "https://x.example");
  });
});

describe("fw-b: a per-view CORS policy replaces the app-wide one for its route", () => {
  class Page extends FwB {
    index() {
      return "page";
    }
  }
  let built: { host: Host; cleanup(): void };
  let url = "";
  before(async () => {
    built = await buildTestApp([{ name: "main", exports: { Api, Page } }], { config: { ...config, cors: { origins: ["https://app.example"] } } });
    const server = await built.host.listen(0, "127.0.0.1");
    url = `http://127.0.0.1:${(server.address() as import("node:net").AddressInfo).port}`;
  });
  after(async () => {
    await built.host.close();
    built.cleanup();
  });

  const origin = async (path: string, from: string, preflight?: string) =>
    (await fetch(`${url}${path}`, { method: preflight ? "OPTIONS" : "GET", headers: { origin: from, ...(preflight ? { "access-control-request-method": preflight } : {}) } })).headers.get(
      "access-control-allow-origin",
    );

  test("a route without @cors follows the app-wide policy", async () => {
    assert.equal(await origin("/page", "https://app.example"), "https://app.example");
    assert.equal(await origin("/page", "https://x.example"), null);
  });

  test("a route with @cors answers requests and preflights with its own policy only", async () => {
    assert.equal(await origin("/api", "https://x.example"), "https://x.example");
    assert.equal(await origin("/api", "https://app.example"), null);
    assert.equal(await origin("/api/replace", "https://x.example", "PUT"), "https://x.example");
    assert.equal(await origin("/api/replace", "https://app.example", "PUT"), null);
  });
});

describe("fw-b: decorator options checked at start-up", () => {
  const refused = (make: () => unknown, pattern: RegExp) =>
    assert.throws(make, (error: Error & { code?: string }) => {
      assert.equal(error.code, "E_UNKNOWN_OPTION");
      assert.match(error.message, pattern);
      return true;
    });

  test("defineApp refuses an unknown option with a suggestion", () => {
    refused(() => defineApp({ root: "/tmp", viewModule: ["main"] } as never), /Did you mean "viewModules"\?/);
  });

  test("@cors with a misspelt key suggests the known one", () => {
    refused(() => cors({ origns: ["https://x.example"] } as never), /Did you mean "origins"\?/);
  });

  test("@navTitle and @admin refuse unknown options", () => {
    refused(() => navTitle("Home", { ordr: 1 } as never), /Did you mean "order"\?/);
    refused(() => admin({ titel: "Tea" } as never), /Did you mean "title"\?/);
  });

  test("@csrfExempt, @renderJson and @cache refuse what they do not take", () => {
    refused(() => (csrfExempt as unknown as (o: unknown) => unknown)({ paths: [] }), /@csrfExempt\(\) takes no options/);
    refused(() => (renderJson as unknown as (o: unknown) => unknown)({ pretty: true }), /@renderJson\(\) takes no options/);
    assert.throws(() => cache({ seconds: 5 } as never));
    assert.equal(typeof route("/x"), "function");
  });
});

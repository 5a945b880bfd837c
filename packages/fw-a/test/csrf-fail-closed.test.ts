/**
 * Issue 14 items 5 and 6 in fw-a: every unsafe request is CSRF-checked whatever registered its
 * route (a class view, a hand-written route on host.router, app middleware, a plugin, a mounted
 * app) unless explicitly exempt; a per-view CORS policy in the documented `{ origin }` form
 * restricts, answers its preflights, and an unknown option is a start-up error.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { HostPlugin } from "@fwkit/koa-host/plugin";
import { createApp, defineApp, FwA, request, response, security, type Host } from "../src/index.js";
import { listenForTest } from "../src/testing/index.js";
import { Browser } from "./support/client.js";

const root = mkdtempSync(join(tmpdir(), "fwa-csrf-"));
const config = { env: "test", logRequests: false, dbUrl: "sqlite::memory:", csrfExemptPaths: ["/raw/hook", "/plugin/hooks/*"] };

class Index extends FwA {
  token() {
    return security.csrfToken(this.ctx);
  }

  @request.post
  save() {
    return "saved";
  }

  @request.post
  @security.csrfExempt
  hook() {
    return "hooked";
  }
}

@response.json
@security.cors({ origin: "https://x.example" })
class Api extends FwA {
  index() {
    return { ok: true };
  }

  @request.put
  replace() {
    return { replaced: true };
  }
}

class Sub extends FwA {
  token() {
    return security.csrfToken(this.ctx);
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

const sub = defineApp({ root, modules: [{ name: "sub", exports: { Sub } }], config });

describe("fw-a: CSRF fails closed, whatever registered the route", () => {
  let app: Host;
  let url = "";
  let close: () => Promise<void>;
  before(async () => {
    app = await createApp({ root, modules: [{ name: "main", exports: { Index, Api } }], config, plugins: [actionPlugin], mounts: { "/sub": sub } });
    app.router.post("/raw/act", (ctx) => {
      ctx.body = "raw acted";
    });
    app.router.post("/raw/hook", (ctx) => {
      ctx.body = "raw hooked";
    });
    app.koa.use((ctx, next) => {
      if (ctx.method === "DELETE" && ctx.path === "/mw/act") {
        ctx.body = "middleware acted";
        return;
      }
      return next();
    });
    ({ url, close } = await listenForTest(app));
  });
  after(async () => {
    await close();
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  const unsafe: ReadonlyArray<[string, string, string]> = [
    ["a class view", "POST", "/save/"],
    ["a hand-written route on host.router", "POST", "/raw/act"],
    ["app middleware added with koa.use", "DELETE", "/mw/act"],
    ["a plugin's middleware", "POST", "/plugin/act"],
    ["a mounted app's view", "POST", "/sub/sub/act/"],
    ["a path nothing answers", "POST", "/nothing/here"],
  ];

  for (const [how, method, path] of unsafe) {
    test(`${how}: ${method} ${path} without a token is 403, with the session's token it passes`, async () => {
      const browser = new Browser(url);
      const refused = await browser.fetch(path, { method });
      assert.equal(refused.status, 403, `${method} ${path}`);
      assert.match(await refused.text(), /_csrf_token|X-CSRF-Token/);
      const token = await (await browser.fetch(path.startsWith("/sub/") ? "/sub/sub/token/" : "/token/")).text();
      const passed = await browser.fetch(path, { method, headers: { "x-csrf-token": token } });
      assert.notEqual(passed.status, 403, `${method} ${path} with the token`);
    });
  }

  test("explicit exemptions pass without a token: @csrfExempt, csrfExemptPaths (exact and /*), bearer-only", async () => {
    const browser = new Browser(url);
    assert.equal(await (await browser.fetch("/hook/", { method: "POST" })).text(), "hooked");
    assert.equal(await (await browser.fetch("/raw/hook", { method: "POST" })).text(), "raw hooked");
    assert.equal(await (await browser.fetch("/plugin/hooks/stripe", { method: "POST" })).text(), "plugin acted");
    const bearer = await fetch(`${url}/raw/act`, { method: "POST", headers: { authorization: "Bearer abc" } });
    assert.equal(await bearer.text(), "raw acted");
  });

  test("a request the dispatcher answers itself is not turned into a 403 (405, slash redirect)", async () => {
    assert.equal((await fetch(`${url}/token/`, { method: "POST" })).status, 405);
    assert.equal((await fetch(`${url}/save`, { method: "POST", redirect: "manual" })).status, 308);
  });

  test("a refused JSON view answers in JSON (the route's kind)", async () => {
    const res = await fetch(`${url}/api/replace/`, { method: "PUT" });
    assert.equal(res.status, 403);
    assert.match(res.headers.get("content-type") ?? "", /json/);
  });

  test("@security.cors({ origin }) allows only that origin, not *", async () => {
    const allowed = await fetch(`${url}/api/`, { headers: { origin: "https://x.example" } });
    assert.equal(allowed.headers.get("access-control-allow-origin"), "https://x.example");
    const other = await fetch(`${url}/api/`, { headers: { origin: "https://evil.example" } });
    assert.equal(other.headers.get("access-control-allow-origin"), null);
  });

  test("the automatic OPTIONS answer of a preflight carries the route's CORS policy", async () => {
    const preflight = await fetch(`${url}/api/replace/`, {
      method: "OPTIONS",
      headers: { origin: "https://x.example", "access-control-request-method": "PUT" },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-allow-origin"), "https://x.example");
    assert.match(preflight.headers.get("access-control-allow-methods") ?? "", /PUT/);
    const other = await fetch(`${url}/api/replace/`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "PUT" },
    });
    assert.equal(other.headers.get("access-control-allow-origin"), null);
    assert.match(other.headers.get("allow") ?? "", /PUT/);
  });
});

describe("fw-a: options checked at start-up", () => {
  test("@security.cors with an unknown key is E_UNKNOWN_OPTION suggesting the known one", () => {
    assert.throws(() => security.cors({ orign: "https://x.example" } as never), (error: Error & { code?: string }) => {
      assert.equal(error.code, "E_UNKNOWN_OPTION");
      assert.match(error.message, /Did you mean "origin"\?/);
      return true;
    });
  });

  test("@security.csrfExempt and @response.json take no options", () => {
    assert.throws(() => (security.csrfExempt as unknown as (o: unknown) => unknown)({ paths: [] }), { code: "E_UNKNOWN_OPTION" });
  });

  test("a mounted app without the security battery is refused when the parent has it", async () => {
    const bare = defineApp({ root, modules: [{ name: "sub", exports: { Sub } }], config: { ...config, batteries: { security: false } } });
    await assert.rejects(createApp({ root, modules: [{ name: "main", exports: { Index } }], config, mounts: { "/bare": bare } }), { code: "E_MOUNT_UNGUARDED" });
  });

  test("defineApp and createApp refuse an unknown option with a suggestion", async () => {
    assert.throws(() => defineApp({ root, veiws: ["main"] } as never), /defineApp\(options\) has no option "veiws". Did you mean "views"\?/);
    await assert.rejects(createApp({ root, modules: [], mount: {} } as never), /Did you mean "mounts"\?/);
  });

  test("an unknown config key stops the start with a suggestion", async () => {
    await assert.rejects(createApp({ root, modules: [], config: { ...config, csrfExemptPath: ["/x"] } }), /Did you mean "csrfExemptPaths"\?/);
  });
});

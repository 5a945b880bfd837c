import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { PhaseContext, PluginContext } from "@fwkit/koa-host/plugin";
import { buildRouteTable, defineConventions, restrictVerbs, type Route } from "routing-kernel";
import { bearerAuth } from "../src/bearer.js";
import { csrfExempt } from "../src/csrf.js";
import { securityPlugin } from "../src/plugin.js";
import { MemorySessionStore } from "../src/stores/memory.js";

class View {}
const post = restrictVerbs("post", ["POST"]);

class Index extends View {
  page() {}

  @post
  save() {}

  @post
  @csrfExempt
  hook() {}

  @post
  @bearerAuth
  api() {}
}

const table = buildRouteTable({
  conventions: defineConventions({ baseClass: View, trailingSlash: false }),
  modules: [{ name: "main", exports: { Index } }],
});
const route = (method: string): Route => table.find(Index, method);
const quiet = { info() {}, warn() {}, error() {}, debug() {} };
const context = (config: Record<string, unknown> = {}) =>
  ({
    config: { env: "test", secretKey: "plugin-test-secret", root: process.cwd(), ...config },
    logger: quiet,
    table,
  }) as unknown as PluginContext;

describe("securityPlugin", () => {
  test("per-route middleware is decided at start-up from verbs and tags", async () => {
    const plugin = securityPlugin();
    await plugin.setup!(context());
    assert.equal(plugin.phases!.route!(route("page")), undefined, "a GET route needs nothing per request");
    // CSRF is no longer per route: the app-wide check covers every unsafe request.
    assert.equal(plugin.phases!.route!(route("save")), undefined, "a POST route is checked app-wide, not per route");
    assert.equal(plugin.phases!.route!(route("hook")), undefined, "an exempt POST route gets nothing");
    assert.equal(typeof plugin.phases!.route!(route("api")), "function", "a bearer route gets the bearer check");
    await plugin.close!();
  });

  test("an unknown option is a start-up error suggesting the known one", () => {
    assert.throws(
      () => securityPlugin({ sesionUrl: "memory:" } as never),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, "E_UNKNOWN_OPTION");
        assert.match(error.message, /securityPlugin\(options\) has no option "sesionUrl". Did you mean "sessionUrl"\?/);
        return true;
      },
    );
    securityPlugin({ sessionUrl: "memory:", csrfExemptPaths: ["/hooks/*"], loadUser: () => undefined });
  });

  test("csrfExemptPaths must be paths, with * only as a last segment", async () => {
    for (const bad of ["hooks", "/a/*/b", "/a*"]) {
      const plugin = securityPlugin({ csrfExemptPaths: [bad] });
      await assert.rejects(
        Promise.resolve().then(() => plugin.setup!(context())),
        { code: "E_SECURITY_CONFIG_INVALID" },
        bad,
      );
    }
  });

  test("using the plugin before setup is a coded start-up error", () => {
    const plugin = securityPlugin();
    assert.throws(() => plugin.phases!.request!({} as PhaseContext), { code: "E_SECURITY_NOT_SET_UP" });
    assert.throws(() => plugin.config, { code: "E_SECURITY_NOT_SET_UP" });
    assert.throws(() => plugin.needsRehash(`$2b$04$${"a".repeat(53)}`), { code: "E_SECURITY_NOT_SET_UP" });
  });

  test("bound helpers follow the app's config; options win over it", async () => {
    const plugin = securityPlugin({ argon2MemoryCost: 1024, argon2TimeCost: 1 });
    await plugin.setup!(context({ passwordAlgorithm: "argon2id", bcryptCost: 4 }));
    const hash = await plugin.hashPassword("pw");
    assert.match(hash, /^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    assert.equal(await plugin.verifyPassword("pw", hash), true);
    assert.equal(plugin.needsRehash(hash), false);
    const claims = await plugin.verifyJwt(await plugin.signJwt({ sub: "7" }, { expiresIn: "5m" }));
    assert.equal(claims.exp! - claims.iat!, 300);
    await plugin.close!();
  });

  test("expired sessions are swept on a timer, which close() stops", async () => {
    const store = new MemorySessionStore();
    const plugin = securityPlugin({ sessionStore: store, sessionSweepInterval: 1 });
    await plugin.setup!(context());
    await store.set("gone", {}, Date.now() - 1);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    assert.equal(store.has("gone"), false);
    await plugin.close!();
    await store.set("kept", {}, Date.now() - 1);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    assert.equal(store.has("kept"), true, "no sweep after close");
  });
});

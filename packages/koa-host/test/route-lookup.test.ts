// The route a request goes to is known from the route table alone: a plugin can look it up from its
// setup on, before the dispatcher (built from the plugins' route phases) exists, and app-wide
// middleware reads the same answer the dispatcher then uses.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import type { Context } from "koa";
import type { Host } from "../src/index.js";
import type { HostPlugin, HostRuntime } from "../src/plugin.js";
import { post, startHost, TestView } from "./fixtures.js";

class Notes extends TestView {
  index() {
    return "notes";
  }
  @post
  create() {
    return "created";
  }
}

/** A context as far as the lookup reads it. */
function request(method: string, path: string): Context {
  return { method, path, get: () => "", request: { body: undefined }, query: {} } as unknown as Context;
}

const open: Host[] = [];
after(async () => {
  for (const host of open) await host.close();
});

describe("runtime.lookupRoute", () => {
  test("answers in a plugin's setup, before the phases are asked", async () => {
    let seen: string | undefined;
    let phasesAsked = false;
    const plugin: HostPlugin = {
      name: "looks-up",
      setup({ runtime }: { runtime: HostRuntime }) {
        assert.equal(phasesAsked, false);
        seen = runtime.lookupRoute(request("GET", "/notes"))?.route?.id;
      },
      phases: {
        request: () => {
          phasesAsked = true;
          return [
            async (ctx, next) => {
              const found = ctx.runtime.lookupRoute(ctx);
              ctx.set("X-Route", found?.route?.id ?? (found?.answersItself ? "itself" : "none"));
              await next();
            },
          ];
        },
      },
    };
    const { host, url } = await startHost({ Notes }, { plugins: [plugin] });
    open.push(host);
    assert.ok(seen, "the plugin saw a route in its setup");
    const page = await fetch(`${url}/notes`);
    assert.equal(await page.text(), "notes");
    assert.equal(page.headers.get("x-route"), seen);
    const refused = await fetch(`${url}/notes`, { method: "DELETE" });
    assert.equal(refused.status, 405);
    assert.equal(refused.headers.get("x-route"), "itself");
    const missing = await fetch(`${url}/nowhere`);
    assert.equal(missing.headers.get("x-route"), "none");
  });
});

// The host's phases: plugins join them by name, run in the documented order, are ordered by
// their `after` constraints, and what a plugin gets wrong stops the start with a coded error.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Middleware } from "koa";
import { HOST_PHASES } from "../src/plugin.js";
import type { HostPlugin } from "../src/plugin-api.js";
import { createHost } from "../src/host.js";
import { conventions, startHost, TestView, testResponder } from "./fixtures.js";

class Index extends TestView {
  index() {
    return "home";
  }
}

/** Middleware that writes `label` into the `x-trail` response header, then goes on. */
const mark =
  (label: string): Middleware =>
  async (ctx, next) => {
    const trail = ctx.response.get("x-trail");
    ctx.set("x-trail", trail ? `${trail},${label}` : label);
    await next();
  };

/** A plugin that marks the request in its request phase, and every route in its route phase. */
const marking = (name: string, after?: readonly string[]): HostPlugin => ({
  name,
  ...(after ? { after } : {}),
  phases: {
    request: () => [mark(`${name}.request`)],
    route: () => mark(`${name}.route`),
  },
});

const build = (plugins: readonly HostPlugin[]) =>
  createHost({
    root: new URL("./app", import.meta.url).pathname,
    conventions,
    responder: () => testResponder,
    modules: [{ name: "main", exports: { Index } }],
    config: { env: "test", logRequests: false },
    plugins,
  });

describe("the host's phases", () => {
  test("the phases are listed in the order a request goes through them", () => {
    assert.deepEqual([...HOST_PHASES], ["front", "static", "request", "preflight", "route", "fallback"]);
  });

  test("front runs around request, request before route, and plugins keep their order within a phase", async () => {
    const front: HostPlugin = { name: "front", phases: { front: () => mark("front") } };
    const { host, url } = await startHost({ Index }, { plugins: [marking("one"), marking("two"), front] });
    try {
      const res = await fetch(`${url}/`);
      assert.equal(await res.text(), "home");
      assert.equal(res.headers.get("x-trail"), "front,one.request,two.request,one.route,two.route");
    } finally {
      await host.close();
    }
  });

  test("a plugin comes after those its `after` names, in every phase", async () => {
    const { host, url } = await startHost({ Index }, { plugins: [marking("user", ["session"]), marking("session")] });
    try {
      const res = await fetch(`${url}/`);
      assert.equal(res.headers.get("x-trail"), "session.request,user.request,session.route,user.route");
      assert.deepEqual(
        host.runtime.plugins.map((plugin) => plugin.name),
        ["session", "user", "openapi"],
      );
    } finally {
      await host.close();
    }
  });

  test("an unknown phase stops the start, naming the known ones", async () => {
    const wrong = { name: "typo", phases: { requets: () => [] } } as unknown as HostPlugin;
    await assert.rejects(build([wrong]), (error: Error & { code?: string }) => {
      assert.equal(error.code, "E_PLUGIN_PHASE_UNKNOWN");
      assert.match(error.message, /typo/);
      assert.match(error.message, /requets/);
      assert.match(error.message, /front, static, request, preflight, route, fallback/);
      return true;
    });
  });

  test("a hook the phases replaced stops the start, naming its phase", async () => {
    const old = { name: "old", middleware: () => [] } as unknown as HostPlugin;
    await assert.rejects(build([old]), (error: Error & { code?: string }) => {
      assert.equal(error.code, "E_PLUGIN_PHASE_UNKNOWN");
      assert.match(error.message, /phases\.request/);
      return true;
    });
  });

  test("a missing or circular `after` stops the start, naming the app's plugins", async () => {
    await assert.rejects(build([marking("user", ["session"])]), (error: Error & { code?: string }) => {
      assert.equal(error.code, "E_PLUGIN_ORDER");
      assert.match(error.message, /session/);
      assert.match(error.message, /user, openapi/);
      return true;
    });
    await assert.rejects(build([marking("a", ["b"]), marking("b", ["a"])]), { code: "E_PLUGIN_ORDER" });
  });

  test("mounting an app leaves the parent's middleware list as it was built", async () => {
    const parent = await build([]);
    const child = await build([]);
    const layers = [...parent.koa.middleware];
    parent.mount("/child", child);
    assert.deepEqual(parent.koa.middleware, layers);
    await parent.close();
  });
});

import assert from "node:assert/strict";
import type { SuiteContext } from "../suite.js";
import { expectText } from "../suite.js";

/** A new instance per request, async views, beforeRequest and afterRequest. */
export function lifecycleCases(s: SuiteContext): void {
  const { Base } = s.adapter;
  const calls = { guarded: 0 };

  class Counter extends Base {
    count = 0;
    index() {
      this.count += 1;
      return `count ${this.count}`;
    }
  }
  class Slow extends Base {
    async index() {
      await new Promise((resolve) => setTimeout(resolve, 10));
      return "async done";
    }
  }
  class Guarded extends Base {
    beforeRequest(name: string, ...args: unknown[]) {
      if (args[0] === "blocked") return `blocked by beforeRequest (${name})`;
      return undefined;
    }
    show(id: string) {
      calls.guarded += 1;
      return `show ${id}`;
    }
  }
  class AsyncGuarded extends Base {
    async beforeRequest(name: string, ...args: unknown[]) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return args[0] === "stop" ? `stopped ${name}` : undefined;
    }
    show(id: string) {
      return `show ${id}`;
    }
  }
  class Wrapped extends Base {
    afterRequest(name: string, response: unknown) {
      return `${String(response)} (after ${name})`;
    }
    async show(id: string) {
      return `show ${id}`;
    }
  }
  class Replaced extends Base {
    async afterRequest(name: string, response: unknown) {
      return response === "original" ? `replaced (${name})` : response;
    }
    index() {
      return "original";
    }
  }
  const modules = () => [
    { name: "conformance/lifecycle", exports: { Counter, Slow, Guarded, AsyncGuarded, Wrapped, Replaced } },
  ];

  s.group("instances and hooks", modules, (test) => {
    test("a new view instance serves every request (state does not leak)", async (http) => {
      for (let i = 0; i < 3; i++) expectText(await http.get(s.p("/counter")), "count 1", `request ${i + 1}`);
    });

    test("async views are awaited", async (http) => {
      expectText(await http.get(s.p("/slow")), "async done", "GET /slow");
    });

    test("beforeRequest receives the method name and arguments; a value short-circuits the method", async (http) => {
      const before = calls.guarded;
      const blocked = await http.get(s.p("/guarded/show/blocked"));
      expectText(blocked, "blocked by beforeRequest (show)", "blocked");
      assert.equal(calls.guarded, before, "the method was not called");
      expectText(await http.get(s.p("/guarded/show/7")), "show 7", "undefined lets the method run");
      assert.equal(calls.guarded, before + 1);
    });

    test("an async beforeRequest is awaited", async (http) => {
      expectText(await http.get(s.p("/async-guarded/show/stop")), "stopped show", "stopped");
      expectText(await http.get(s.p("/async-guarded/show/go")), "show go", "passed");
    });

    test("afterRequest sees the method name and its response and returns the response", async (http) => {
      expectText(await http.get(s.p("/wrapped/show/3")), "show 3 (after show)", "wrapped");
    });

    test("an async afterRequest may replace the response", async (http) => {
      expectText(await http.get(s.p("/replaced")), "replaced (index)", "GET /replaced");
    });
  });
}

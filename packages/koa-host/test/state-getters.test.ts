// Plugins' getters on ctx.state (`stateGetters`): computed when read and only then, given the
// request, beside what earlier middleware wrote into the state; one key offered twice stops the start.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Context } from "koa";
import type { HostPlugin } from "../src/plugin-api.js";
import { startHost, TestView } from "./fixtures.js";

const calls: string[] = [];

class Index extends TestView {
  index() {
    return "home";
  }
}
class Shown extends TestView {
  index() {
    const state = this.ctx.state as Record<string, unknown>;
    return `${String(state["greeting"])} ${String(state["greeting"])} / ${String(state["fromFront"])}`;
  }
}

class Dumped extends TestView {
  index() {
    return JSON.stringify(this.ctx.state);
  }
}

/** A plugin offering `greeting`, which names the request's path, and recording each time it is computed. */
const greeting: HostPlugin = {
  name: "greeting",
  stateGetters: () => ({
    greeting: (ctx: Context) => {
      calls.push(ctx.path);
      return `hello ${ctx.path}`;
    },
  }),
};
/** A plugin whose front layer writes into the state before the host's front layer runs. */
const front: HostPlugin = {
  name: "front",
  phases: {
    front: () => async (ctx, next) => {
      ctx.state["fromFront"] = "kept";
      await next();
    },
  },
};

describe("plugins' getters on ctx.state", () => {
  test("a getter runs each time it is read, with the request, and never when nothing reads it", async () => {
    const { host, url } = await startHost({ Index, Shown, Dumped }, { plugins: [front, greeting] });
    try {
      calls.length = 0;
      assert.equal(await (await fetch(`${url}/`)).text(), "home");
      assert.deepEqual(calls, [], "a request that does not read it computes nothing");
      assert.equal(await (await fetch(`${url}/shown`)).text(), "hello /shown hello /shown / kept");
      assert.deepEqual(calls, ["/shown", "/shown"]);
      // JSON of the state holds what was written into it, not the getters' values or the request.
      calls.length = 0;
      const dumped = JSON.parse(await (await fetch(`${url}/dumped`)).text()) as Record<string, unknown>;
      assert.equal(dumped["fromFront"], "kept");
      assert.equal("greeting" in dumped, false);
      assert.deepEqual(calls, []);
    } finally {
      await host.close();
    }
  });

  test("two plugins offering one key stop the start, naming the key and both plugins", async () => {
    const again: HostPlugin = { name: "greeting-too", stateGetters: () => ({ greeting: () => "hi" }) };
    await assert.rejects(
      startHost({ Index }, { plugins: [greeting, again] }),
      (error: Error & { code?: string }) =>
        error.code === "E_STATE_GETTER_TAKEN" && /greeting.*greeting-too.*ctx\.state\.greeting/.test(error.message),
    );
  });
});

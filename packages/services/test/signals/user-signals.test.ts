import assert from "node:assert/strict";
import { test } from "node:test";
import type { Context } from "koa";
import { SignalRegistry } from "../../src/signals/signal.js";
import { userSignalHooks } from "../../src/signals/user-signals.js";

test("login hooks send the user signals, then the app's own hooks", async () => {
  const registry = new SignalRegistry();
  const seen: string[] = [];
  registry.get<{ userId: string }>("user.logged_in").connect(({ userId }) => void seen.push(`signal in ${userId}`));
  registry.get<{ userId: string }>("user.logged_out").connect(({ userId }) => void seen.push(`signal out ${userId}`));
  const hooks = userSignalHooks(
    { onLogin: (_u, _c, id) => void seen.push(`app in ${id}`), onLogout: (id) => void seen.push(`app out ${id}`) },
    registry,
  );
  const ctx = {} as Context;
  await hooks.onLogin({ id: 7 }, ctx, "7");
  await hooks.onLogout("7", ctx);
  await hooks.onLogout(undefined, ctx);
  assert.deepEqual(seen, ["signal in 7", "app in 7", "signal out 7", "app out 7", "app out undefined"]);
});

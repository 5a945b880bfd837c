// A plugin's request timer (the metrics battery's): the host's front layer calls it as each request
// begins and once its answer is decided, an error's answer included, with the start's clock
// reading; health probes are not measured.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { HostPlugin } from "../src/plugin-api.js";
import { startHost, TestView } from "./fixtures.js";

class Index extends TestView {
  index() {
    return "hello";
  }
  broken() {
    throw new Error("the view failed");
  }
}

test("requestTimer: start and end for every answered request (errors too), none for a health probe", async () => {
  const seen: Array<{ path: string; status: number; ms: number; open: number }> = [];
  let open = 0;
  const timed: HostPlugin = {
    name: "timed",
    requestTimer: () => ({
      start() {
        open++;
      },
      end(ctx, start) {
        seen.push({ path: ctx.path, status: ctx.status, ms: performance.now() - start, open });
        open--;
      },
    }),
  };
  const { host, url } = await startHost({ Index }, { plugins: [timed], config: { env: "test" } });
  try {
    assert.equal((await fetch(`${url}/`)).status, 200);
    assert.equal((await fetch(`${url}/broken`)).status, 500);
    assert.equal((await fetch(`${url}/missing`)).status, 404);
    assert.equal((await fetch(`${url}/healthz`)).status, 200);
    assert.deepEqual(
      seen.map(({ path, status, open: during }) => [path, status, during]),
      [
        ["/", 200, 1],
        ["/broken", 500, 1],
        ["/missing", 404, 1],
      ],
    );
    for (const { ms } of seen) assert.ok(ms >= 0 && Number.isFinite(ms));
    assert.equal(open, 0, "every start has its end");
  } finally {
    await host.close();
  }
});

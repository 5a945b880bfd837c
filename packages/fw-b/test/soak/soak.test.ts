// RSS grew across repeated load runs with Redis sessions. The same load runs several
// rounds against one fw-b app (batteries on, Redis sessions, Redis cache); the heap after a full GC
// must stop growing once the first rounds have warmed caches up. The normal suite runs a short form;
// `pnpm test:soak` (SOAK=long) runs the long one.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { requireServer, serverSkip } from "@fwkit/test-servers";
import { startBatteryApp, type BatteryApp } from "../batteries/fixture.js";
import { soak, type LoadStep } from "./harness.js";

const long = process.env["SOAK"] === "long";
const ROUNDS = Number(process.env["SOAK_ROUNDS"] ?? (long ? 10 : 3));
assert.ok(ROUNDS >= 3, "SOAK_ROUNDS: two warm-up rounds and at least one measured");
const STEPS = Number(process.env["SOAK_VISITS"] ?? (long ? 1500 : 40));

/** What a visitor does: a page that makes a session, a form post with its token, a login, a JSON call, a cached page, a 404. */
const visitor: LoadStep = async (send, i) => {
  const page = await send("/forms");
  const html = await page.text();
  const cookie = (page.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
  assert.equal(page.status, 200, html);
  const token = /name="csrf-token" content="([^"]+)"/.exec(html)?.[1] ?? "";
  assert.ok(token && cookie, `the page gives a session and a token: ${cookie} ${html.slice(0, 300)}`);
  const saved = await send("/forms/save", {
    method: "POST",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ note: `n${i}`, _csrf_token: token }),
  });
  assert.equal(saved.status, 200, await saved.text());
  const api = await send("/api/echo", {
    method: "POST",
    headers: { cookie, "x-csrf-token": token, "content-type": "application/json" },
    body: JSON.stringify({ i }),
  });
  assert.equal(api.status, 200, await api.text());
  await (await send("/counter")).arrayBuffer();
  await (await send("/forms", { headers: { cookie } })).arrayBuffer();
  await (await send(`/nothing/${i}`)).arrayBuffer();
  // Every fourth visitor logs in: the login limiter's Redis counter, a new session id, a protected page.
  if (i % 4 === 0) {
    const login = await send("/session/login", { method: "POST", headers: { cookie, "x-csrf-token": token } });
    assert.equal(login.status, 302, await login.text());
    const session = (login.headers.getSetCookie().find((line) => line.startsWith("session=")) ?? cookie).split(";")[0]!;
    const secret = await send("/private", { headers: { cookie: session } });
    assert.equal(secret.status, 200, await secret.text());
  }
};

describe(`soak: fw-b with Redis sessions, ${ROUNDS} rounds of ${STEPS} visits`, serverSkip, () => {
  let app: BatteryApp;
  before(async () => {
    const redis = await requireServer("redis");
    app = await startBatteryApp({
      sessionUrl: `${redis}?prefix=fwb-soak-${process.pid}:`,
      cacheUrl: `${redis}?prefix=fwb-soak-cache-${process.pid}:`,
    });
  });
  after(() => app?.close());

  test("the heap after GC stops growing from round to round", async () => {
    const heaps = await soak({
      url: app.url,
      rounds: ROUNDS,
      steps: STEPS,
      concurrency: 16,
      step: visitor,
      onRound: (round, m) =>
        console.log(
          `round ${round + 1}: after GC heap ${m.heapMb.toFixed(1)} MB, external ${m.externalMb.toFixed(1)} MB, rss ${m.rssMb.toFixed(1)} MB`,
        ),
    });
    // The first two rounds warm up (compiled templates, connection pools, JIT): measure from there.
    const base = heaps[1]!;
    const last = heaps[heaps.length - 1]!;
    const perRound = (last - base) / (heaps.length - 2);
    console.log(
      `heaps: ${heaps.map((h) => h.toFixed(1)).join(", ")} MB; growth per round after warm-up ${perRound.toFixed(2)} MB`,
    );
    // A leak of even 1 KB per visit shows as STEPS KB per round; allow a little noise.
    assert.ok(
      perRound < Math.max(1, (STEPS * 0.5) / 1024),
      `the heap grows ${perRound.toFixed(2)} MB per round: ${heaps.map((h) => h.toFixed(1)).join(", ")}`,
    );
  });
});

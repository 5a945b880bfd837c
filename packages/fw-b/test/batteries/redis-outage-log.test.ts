// While Redis was down every request wrote an error line. Now each store's outage is
// one line when it starts (then one per minute with a count) and one when it ends. The test runs
// its own redis-server on another port and stops and starts it.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startRedis, type RedisProcess } from "@fwkit/test-servers";
import { startBatteryApp, type BatteryApp } from "./fixture.js";

/** Sends requests until `check` passes (bounded at 60 s, which only ends a hang on a busy machine). */
async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`never happened: ${what}`);
}

describe("Redis outages are logged once per store and state change, not per request", () => {
  let redis: RedisProcess;
  let app: BatteryApp;
  const lines: string[] = [];
  let cookie = "";

  before(async () => {
    redis = await startRedis();
    app = await startBatteryApp({ sessionUrl: `${redis.url}?prefix=sess:`, cacheUrl: redis.url });
    const logger = app.host.logger as unknown as Record<string, unknown>;
    for (const level of ["info", "warn", "error", "fatal"]) {
      const original = logger[level] as (...args: unknown[]) => void;
      logger[level] = (details: unknown, message?: string) => {
        lines.push(`${level} ${typeof details === "string" ? details : String(message)}`);
        if (level === "info") return;
        void original;
      };
    }
    // A form page stores no session for a visitor; a login does (with the page's CSRF cookie and token).
    const first = await fetch(`${app.url}/forms`);
    assert.equal(first.status, 200);
    const csrfCookie = (first.headers.getSetCookie()[0] ?? "").split(";")[0]!;
    const token = /name="_csrf_token" value="([^"]+)"/.exec(await first.text())?.[1] ?? "";
    const login = await fetch(`${app.url}/session/login`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: csrfCookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ _csrf_token: token }).toString(),
    });
    cookie = (login.headers.getSetCookie().find((line) => line.startsWith("session=")) ?? "").split(";")[0]!;
    assert.ok(cookie.startsWith("session="), `the login made a session: ${login.status}`);
  });

  after(async () => {
    await redis?.start().catch(() => undefined);
    await app?.close();
    await redis?.close();
  });

  test("requests during an outage: one line per store when it starts; recovery: one line per store", async () => {
    assert.equal((await fetch(`${app.url}/forms`, { headers: { cookie } })).status, 200);
    assert.equal((await fetch(`${app.url}/counter`)).status, 200);
    assert.equal((await fetch(`${app.url}/counter/remembered`)).status, 200);
    lines.length = 0;

    await redis.stop();
    for (let i = 0; i < 5; i++) {
      const page = await fetch(`${app.url}/forms`, { headers: { cookie } });
      assert.equal(page.status, 503, "the session store is down: 503");
      const counted = await fetch(`${app.url}/counter`);
      assert.equal(counted.status, 200, "the response cache serves uncached while Redis is down");
      const remembered = await fetch(`${app.url}/counter/remembered`);
      assert.equal(remembered.status, 200, "a cache read on the dead Redis is a miss, not a 503");
    }
    // The store's 503 on a @renderJson route is JSON, as the view's own errors are.
    const api = await fetch(`${app.url}/private-api`, { headers: { cookie, accept: "text/html,*/*" } });
    assert.equal(api.status, 503);
    assert.match(api.headers.get("content-type") ?? "", /application\/json/);
    assert.equal(((await api.json()) as { error: { status: number } }).error.status, 503);
    const downLines = lines.filter((line) => !line.startsWith("info"));
    // A request waits for the client's retries while Redis is down, so the loop may outlast the
    // minute after which a store's line repeats (with its count): only those repeats may be added.
    const started = (store: string) =>
      downLines.filter((line) => line.includes(store) && /failed .*it is down/.test(line));
    assert.equal(started("the redis session store").length, 1, downLines.join("\n"));
    assert.equal(started("cache: Redis at").length, 1, downLines.join("\n"));
    assert.ok(started("login-limit counter").length <= 1, downLines.join("\n"));
    const others = downLines.filter(
      (line) => !/failed .*it is down|is still down after \d+ s \(\d+ failures/.test(line),
    );
    assert.deepEqual(others, [], "nothing else is logged, no line per failed request");
    lines.length = 0;
    await redis.start();
    await eventually(
      "the session store answers again",
      async () => (await fetch(`${app.url}/forms`, { headers: { cookie } })).status === 200,
    );
    await eventually("the cache's connection is back", async () =>
      lines.some((line) => line.includes("cache: Redis at") && line.includes("is back")),
    );
    const back = lines.filter((line) => line.includes("is back"));
    assert.equal(back.filter((line) => line.includes("the redis session store")).length, 1, lines.join("\n"));
    assert.equal(back.filter((line) => line.includes("cache: Redis at")).length, 1, lines.join("\n"));
    assert.deepEqual(
      lines.filter((line) => !line.includes("is back") && !line.includes("is still down")),
      [],
      "only recovery lines",
    );
  });
});

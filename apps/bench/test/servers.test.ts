import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { Redis } from "ioredis";
import { cookieHeader, verify, type Target } from "../src/load.js";
import { configurations, NAMED_SCENARIOS, parseOptions, SCENARIOS } from "../src/plan.js";
import { DB_TARGETS } from "../src/servers/db-fixture.js";
import { loadServer, pathFor, serverInfo, SERVERS } from "../src/servers/registry.js";
import { LOGIN_PATH, WORKLOADS, lastRouteWorkload, type Scenario } from "../src/workloads.js";

/**
 * Every server answers every workload it is benchmarked on with the right status, type and body,
 * so a figure in the table always comes from a server that did the work. Servers run in this
 * process here (the bench runs each in its own pinned process).
 */
const plan = configurations(
  parseOptions(["--sizes=10,1000", `--scenarios=${[...SCENARIOS, ...NAMED_SCENARIOS].join(",")}`], false),
);

async function checkScenario(
  server: string,
  scenario: Scenario,
  workloads = plan.find((c) => c.server === server && c.scenario === scenario)?.workloads ?? [],
) {
  const info = serverInfo(server);
  const running = await (await loadServer(server)).start(scenario, 0);
  try {
    const base = `http://127.0.0.1:${running.port}`;
    const session: Record<string, string> = {};
    if (scenario === "security" || scenario === "db") {
      const login = await fetch(base + pathFor(info, LOGIN_PATH));
      assert.equal(login.status, 200, `${server} login`);
      session["cookie"] = cookieHeader(login);
      session["x-csrf-token"] = ((await login.json()) as { token: string }).token;
      assert.ok(session["cookie"], `${server} sets a session cookie`);
    }
    for (const workload of workloads) {
      const headers: Record<string, string> = { cookie: session["cookie"] ?? "" };
      if (workload.body !== undefined)
        Object.assign(headers, { "content-type": "application/json", "x-csrf-token": session["x-csrf-token"] ?? "" });
      const target: Target = {
        url: base + pathFor(info, workload.path),
        method: workload.method,
        headers,
        ...(workload.body !== undefined ? { body: JSON.stringify(workload.body) } : {}),
      };
      await verify(target, workload, server);
    }
    return { base, session, info };
  } finally {
    await running.close();
  }
}

describe("bench servers answer their workloads", () => {
  for (const config of plan) {
    test(`${config.server} ${config.scenario}: ${config.workloads.map((w) => w.name).join(", ")}`, async () => {
      assert.ok(config.workloads.length > 0);
      await checkScenario(config.server, config.scenario);
    });
  }

  test("every server serves the three simple workloads and the plan covers each workload", () => {
    for (const info of SERVERS)
      for (const name of ["text", "params", "json"] as const)
        assert.ok(info.workloads.includes(name), `${info.name} ${name}`);
    for (const workload of WORKLOADS)
      assert.ok(
        plan.some((c) => c.workloads.includes(workload)),
        workload.name,
      );
  });
});

describe("the security workloads are really protected", () => {
  for (const server of ["koa-router", "fw-a", "fw-b"]) {
    test(`${server}: a POST without the CSRF token is refused with 403, and a session-less read has no user`, async () => {
      const info = serverInfo(server);
      const running = await (await loadServer(server)).start("security", 0);
      try {
        const base = `http://127.0.0.1:${running.port}`;
        const login = await fetch(base + pathFor(info, LOGIN_PATH));
        const cookie = cookieHeader(login);
        await login.arrayBuffer();
        const post = WORKLOADS.find((w) => w.name === "post-csrf")!;
        const refused = await fetch(base + pathFor(info, post.path), {
          method: "POST",
          headers: { cookie, "content-type": "application/json" },
          body: JSON.stringify(post.body),
        });
        assert.equal(refused.status, 403);
        await refused.arrayBuffer();
        const wrong = await fetch(base + pathFor(info, post.path), {
          method: "POST",
          headers: { cookie, "content-type": "application/json", "x-csrf-token": "A".repeat(86) },
          body: JSON.stringify(post.body),
        });
        assert.equal(wrong.status, 403);
        await wrong.arrayBuffer();
        const anonymous = await fetch(base + pathFor(info, "/account/whoami"));
        assert.deepEqual(await anonymous.json(), { user: null });
      } finally {
        await running.close();
      }
    });
  }
});

describe("route-count apps", () => {
  test("the last-registered route of a 10,000-route app answers on each framework and on @koa/router", async () => {
    for (const server of ["koa-router", "fw-a", "fw-b"])
      await checkScenario(server, "routes-10000", [lastRouteWorkload(10_000)]);
  });

  test("the first generated route answers too, and an unknown one is a 404", async () => {
    for (const server of ["koa-router", "fw-a", "fw-b"]) {
      const info = serverInfo(server);
      const running = await (await loadServer(server)).start("routes-1000", 0);
      try {
        const base = `http://127.0.0.1:${running.port}`;
        const first = await fetch(base + pathFor(info, "/r00000/m0"));
        assert.equal(await first.text(), "route R00000.m0");
        const missing = await fetch(base + pathFor(info, "/r00100/m0"));
        assert.equal(missing.status, 404, `${server}: only 1,000 routes exist`);
        await missing.arrayBuffer();
      } finally {
        await running.close();
      }
    }
  });
});

describe("the production-defaults workload does the production work on every server", () => {
  for (const server of SERVERS.filter((s) => s.workloads.includes("prod-text")).map((s) => s.name)) {
    const cookies = server === "adonis" ? "the XSRF cookie its shield always sets" : "no session cookie";
    test(`${server}: a cookie-less GET gets security headers and ${cookies}, an unsafe request without a CSRF token is refused with 403`, async () => {
      const info = serverInfo(server);
      const running = await (await loadServer(server)).start("production", 0);
      try {
        const base = `http://127.0.0.1:${running.port}`;
        const text = await fetch(base + pathFor(info, "/text"));
        assert.equal(await text.text(), "Hello, World!");
        assert.equal(text.headers.get("x-content-type-options"), "nosniff", `${server} sends helmet's headers`);
        assert.match(
          text.headers.get("content-security-policy") ?? "",
          /default-src 'self'/,
          `${server} sends a Content-Security-Policy`,
        );
        if (server === "adonis") {
          // AdonisJS's shield gives every visitor a CSRF secret (in a new session) and an XSRF-TOKEN
          // cookie on every GET, by design; the bench measures it as its starter kit runs it.
          assert.match(text.headers.get("set-cookie") ?? "", /XSRF-TOKEN=/);
        } else
          assert.equal(text.headers.get("set-cookie"), null, `${server} writes no session for a visitor who has none`);
        const post = await fetch(base + pathFor(info, "/account/submit"), {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{}",
        });
        assert.equal(post.status, 403, `${server} guards unsafe methods with CSRF`);
        await post.arrayBuffer();
      } finally {
        await running.close();
      }
    });
  }
});

describe("the db workload really reads its session from Redis", () => {
  const redis = new Redis(DB_TARGETS.redisUrl, { maxRetriesPerRequest: 1 });
  after(() => redis.quit());
  const keys = async () => new Set(await redis.keys("bench-*"));
  for (const server of SERVERS.filter((s) => s.workloads.includes("db-read")).map((s) => s.name)) {
    test(`${server}: login writes one Redis key, and with that key gone the profile has no user`, async () => {
      const info = serverInfo(server);
      const running = await (await loadServer(server)).start("db", 0);
      try {
        const base = `http://127.0.0.1:${running.port}`;
        const before = await keys();
        const login = await fetch(base + pathFor(info, LOGIN_PATH));
        const cookie = cookieHeader(login);
        await login.arrayBuffer();
        const added = [...(await keys())].filter((k) => !before.has(k));
        assert.equal(added.length, 1, `${server} stores the session in Redis`);
        const read = await fetch(base + pathFor(info, "/account/profile"), { headers: { cookie } });
        assert.equal(((await read.json()) as { user: unknown }).user, "alice");
        await redis.del(added[0]!);
        const gone = await fetch(base + pathFor(info, "/account/profile"), { headers: { cookie } });
        assert.deepEqual(await gone.json(), { user: null, item: { id: 1, name: "Item <1>", price: "3.00" } });
      } finally {
        await running.close();
      }
    });
  }
});

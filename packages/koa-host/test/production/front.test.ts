// The production front layer: health and readiness (named failing parts, draining), request ids in
// headers and log lines, trustProxy for ctx.ip / protocol / host, and the start-up checks of the keys.
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { after, describe, test } from "node:test";
import { pino } from "pino";
import { E_PRODUCTION_CONFIG } from "../../src/errors.js";
import type { HostPlugin } from "../../src/plugin.js";
import { startHost, TestView } from "../fixtures.js";
import { markDraining, resetDraining } from "../../src/production/lifecycle.js";
import { productionSettings } from "../../src/production/settings.js";
import { defaultConfig } from "../../src/config.js";

class Index extends TestView {
  index() {
    this.ctx.log.info("inside the view");
    this.ctx.log.info("again inside the view");
    return "home";
  }
  where() {
    return JSON.stringify({
      ip: this.ctx.ip,
      protocol: this.ctx.protocol,
      host: this.ctx.host,
      secure: this.ctx.secure,
    });
  }
}

function flaky(name: string): HostPlugin & { down: boolean; slow: boolean; requests: number } {
  const plugin = {
    name,
    down: false,
    slow: false,
    requests: 0,
    phases: {
      request: () => [
        async (_ctx: unknown, next: () => Promise<void>) => {
          plugin.requests++;
          await next();
        },
      ],
    },
    async ready() {
      if (plugin.slow) await new Promise((resolve) => setTimeout(resolve, 1000));
      if (plugin.down) throw new Error(`${name} is down (ECONNREFUSED 127.0.0.1:1)`);
    },
  };
  return plugin;
}

describe("health, readiness and request ids", async () => {
  const redis = flaky("redis");
  const database = flaky("database");
  const { host, url } = await startHost(
    { Index },
    {
      plugins: [database, redis],
      // The balancer's request id is believed from a trusted proxy only: here, this machine.
      config: { env: "test", logRequests: true, readyTimeout: 200, readyCache: 0, trustProxy: "loopback" },
    },
  );
  after(() => host.close());

  test("GET /healthz answers 200 without touching plugins' middleware (no session, no request log)", async () => {
    const before = redis.requests;
    const res = await fetch(`${url}/healthz`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: "ok" });
    assert.equal(res.headers.get("cache-control"), "no-store");
    assert.equal(res.headers.get("set-cookie"), null);
    assert.equal(redis.requests, before);
  });

  test("GET /readyz is 200 when every plugin answers and 503 naming the failing part (never its address) otherwise", async () => {
    const ok = await fetch(`${url}/readyz`);
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), { status: "ok", checks: { database: "ok", redis: "ok" } });
    redis.down = true;
    const res = await fetch(`${url}/readyz`);
    assert.equal(res.status, 503);
    const text = await res.text();
    assert.deepEqual(JSON.parse(text), { status: "unavailable", checks: { database: "ok", redis: "down" } });
    assert.doesNotMatch(text, /ECONNREFUSED|127\.0\.0\.1/, "the reason goes to the log, not to the client");
    redis.down = false;
  });

  test("a plugin that does not answer within readyTimeout fails readiness with a timeout", async () => {
    database.slow = true;
    const res = await fetch(`${url}/readyz`);
    database.slow = false;
    assert.equal(res.status, 503);
    assert.equal(((await res.json()) as { checks: Record<string, string> }).checks["database"], "down");
  });

  test("health paths answer GET and HEAD only (405 with Allow, not a 500)", async () => {
    const res = await fetch(`${url}/readyz`, { method: "POST" });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get("allow"), "GET, HEAD");
  });

  test("a draining process answers 503 on /readyz and closes keep-alive connections", async () => {
    markDraining();
    try {
      const ready = await fetch(`${url}/readyz`);
      assert.equal(ready.status, 503);
      assert.equal(((await ready.json()) as { status: string }).status, "draining");
      const page = await fetch(`${url}/`);
      assert.equal(page.status, 200);
      assert.equal(page.headers.get("connection"), "close");
      assert.equal((await fetch(`${url}/healthz`)).status, 200);
    } finally {
      resetDraining();
    }
  });

  test("the request id is taken from a trusted proxy's X-Request-Id when it is a plain token, generated otherwise, and echoed", async () => {
    const given = await fetch(`${url}/`, { headers: { "X-Request-Id": "lb-1234.abc" } });
    assert.equal(given.headers.get("x-request-id"), "lb-1234.abc");
    // Generated: this process's random prefix and a counter, a new id per request.
    const generated = (await fetch(`${url}/`)).headers.get("x-request-id") ?? "";
    assert.match(generated, /^[A-Za-z0-9_-]{8}-[0-9a-z]+$/);
    const hostile =
      (await fetch(`${url}/`, { headers: { "X-Request-Id": "<script>alert(1)</script>" } })).headers.get(
        "x-request-id",
      ) ?? "";
    assert.match(hostile, /^[A-Za-z0-9_-]{8}-[0-9a-z]+$/);
    assert.notEqual(hostile, generated);
    assert.equal(hostile.split("-").slice(0, -1).join("-"), generated.split("-").slice(0, -1).join("-"));
  });
});

/** A pino destination that keeps every line it is given, parsed. */
function logLines(): { lines: Array<Record<string, unknown>>; stream: Writable } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n").filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}

describe("request id in the log lines", () => {
  test("the request log line and the lines logged through ctx.log carry the request's reqId; other requests' lines do not", async () => {
    const { lines, stream } = logLines();
    const logger = pino({ level: "info" }, stream);
    const { host, url } = await startHost(
      { Index },
      { logger, config: { env: "test", logRequests: true, trustProxy: 1 } },
    );
    try {
      await fetch(`${url}/`, { headers: { "X-Request-Id": "trace-42" } });
      await fetch(`${url}/`, { headers: { "X-Request-Id": "trace-43" } });
      const of = (id: string) => lines.filter((line) => line["reqId"] === id).map((line) => line["msg"]);
      assert.deepEqual(
        of("trace-42"),
        ["inside the view", "again inside the view", "GET / 200"],
        JSON.stringify(lines),
      );
      assert.deepEqual(
        of("trace-43"),
        ["inside the view", "again inside the view", "GET / 200"],
        JSON.stringify(lines),
      );
    } finally {
      await host.close();
    }
  });

  test("a 500 is logged with the request's reqId", async () => {
    const { lines, stream } = logLines();
    class Broken extends TestView {
      index(): string {
        throw new Error("boom");
      }
    }
    const { host, url } = await startHost(
      { Broken },
      { logger: pino({ level: "info" }, stream), config: { env: "test", trustProxy: 1 } },
    );
    try {
      assert.equal((await fetch(`${url}/broken`, { headers: { "X-Request-Id": "trace-500" } })).status, 500);
      const error = lines.find((line) => line["level"] === 50);
      assert.equal(error?.["reqId"], "trace-500", JSON.stringify(lines));
    } finally {
      await host.close();
    }
  });

  test("the app logger has no per-line hook: the production logger carries no mixin", async () => {
    const { createLogger } = await import("../../src/logger.js");
    const logger = createLogger({ env: "production", logLevel: "info" });
    assert.equal((logger as unknown as Record<symbol, unknown>)[pino.symbols.mixinSym], undefined);
  });
});

describe("trustProxy", () => {
  const forwarded = {
    "X-Forwarded-For": "203.0.113.9, 10.0.0.2",
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "shop.example.com",
  };

  test("off (the default): forwarded headers are ignored", async () => {
    const { host, url } = await startHost({ Index });
    try {
      const seen = (await (await fetch(`${url}/where`, { headers: forwarded })).json()) as Record<string, unknown>;
      assert.equal(seen["protocol"], "http");
      assert.notEqual(seen["host"], "shop.example.com");
      assert.match(String(seen["ip"]), /127\.0\.0\.1/);
    } finally {
      await host.close();
    }
  });

  test("one proxy: ctx.ip is the entry the balancer appended; protocol, host and secure come from its headers", async () => {
    const { host, url } = await startHost({ Index }, { config: { env: "test", logRequests: false, trustProxy: 1 } });
    try {
      const seen = (await (await fetch(`${url}/where`, { headers: forwarded })).json()) as Record<string, unknown>;
      assert.deepEqual(seen, { ip: "10.0.0.2", protocol: "https", host: "shop.example.com", secure: true });
    } finally {
      await host.close();
    }
  });

  test("a number of proxies believes only that many X-Forwarded-For entries from the right", async () => {
    const { host, url } = await startHost({ Index }, { config: { env: "test", logRequests: false, trustProxy: 2 } });
    try {
      const seen = (await (await fetch(`${url}/where`, { headers: forwarded })).json()) as Record<string, unknown>;
      assert.equal(seen["ip"], "203.0.113.9");
    } finally {
      await host.close();
    }
  });
});

describe("production keys are checked at start-up", () => {
  const config = (extra: Record<string, unknown>) => ({ ...defaultConfig("/app", "production"), ...extra });

  test("defaults: /healthz, /readyz, 2 s readiness timeout, 10 s grace, x-request-id, no proxy trust", () => {
    assert.deepEqual(productionSettings(config({})), {
      trustProxy: false,
      healthPath: "/healthz",
      readyPath: "/readyz",
      readyTimeoutMs: 2000,
      readyCacheMs: 1000,
      shutdownGraceMs: 10_000,
      requestIdHeader: "x-request-id",
    });
  });

  test("TRUST_PROXY strings from the environment and switched-off paths are read", () => {
    const settings = productionSettings(
      config({ trustProxy: "1", healthPath: false, readyPath: "/ops/ready", shutdownGrace: "30" }),
    );
    assert.equal(settings.trustProxy, 1);
    assert.equal(settings.healthPath, false);
    assert.equal(settings.readyPath, "/ops/ready");
    assert.equal(settings.shutdownGraceMs, 30_000);
    assert.equal(productionSettings(config({ trustProxy: "2" })).trustProxy, 2);
  });

  for (const [key, value] of [
    ["trustProxy", "sometimes"],
    ["trustProxy", -1],
    ["trustProxy", true],
    ["trustProxy", "true"],
    ["trustProxy", "10.0.0.0/33"],
    ["healthPath", "healthz"],
    ["readyPath", "/healthz"],
    ["readyTimeout", 0],
    ["readyCache", -1],
    ["shutdownGrace", "ten"],
    ["requestIdHeader", "X Request Id"],
  ] as const) {
    test(`${key}: ${JSON.stringify(value)} is an E_PRODUCTION_CONFIG naming the key`, () => {
      assert.throws(
        () => productionSettings(config({ [key]: value })),
        (error: unknown) => error instanceof E_PRODUCTION_CONFIG && (error as Error).message.includes(key),
      );
    });
  }
});

describe("TRUST_PROXY", () => {
  test("the environment variable sets trustProxy (containers configure it without editing lib/config.ts)", async () => {
    const { loadConfig } = await import("../../src/config.js");
    const config = await loadConfig(new URL("../app", import.meta.url).pathname, { env: "test" }, { TRUST_PROXY: "1" });
    assert.equal(productionSettings(config).trustProxy, 1);
  });
});

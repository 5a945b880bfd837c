// Metrics of an app: bounded route labels (one series for 10,000 paths of one route, `unmatched`
// for unknown paths), the metrics port and the token on the app's port, the batteries' metrics
// (knex pool and queries on PostgreSQL, outage state), and the start-up errors of bad settings.
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { after, describe, test } from "node:test";
import { connect } from "@fwkit/data";
import { outageLog } from "@fwkit/battery-kit";
import { requireServer } from "@fwkit/test-servers";
import { routePath } from "routing-kernel";
import {
  defineCounter,
  E_METRIC_NAME,
  E_METRICS_PORT_IN_USE,
  E_METRICS_TOKEN_REQUIRED,
  E_OBSERVABILITY_CONFIG,
} from "../src/index.js";
import { startApp, TestView } from "./fixtures.js";

let db: Awaited<ReturnType<typeof connect>> | undefined;

class Blog extends TestView {
  @routePath("route", "/:slug")
  async show(slug: string) {
    if (db) await db.knex.raw("select ? as slug", [slug]);
    return { slug };
  }
  index() {
    return { posts: [] };
  }
}

/** The value of a series in Prometheus text, or undefined. */
function series(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels);
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (wanted.every(([key, value]) => line.includes(`${key}="${value}"`)))
      return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return undefined;
}

/** Sends `count` GETs, `parallel` at a time. */
async function load(paths: (i: number) => string, count: number, parallel = 16): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const res = await fetch(paths(next++));
        await res.arrayBuffer();
      }
    }),
  );
}

describe("metrics on their own port", async () => {
  const app = await startApp(
    { Blog },
    { metrics: { enabled: true, port: 0, host: "127.0.0.1", labels: { service: "blog" } } },
  );
  after(async () => {
    await app.host.close();
    await db?.close();
  });

  test("10,000 distinct paths of one parameter route are one series, named by the route; unknown paths are `unmatched`", async () => {
    await load((i) => `${app.url}/blog/post-${i}`, 10_000);
    await load((i) => `${app.url}/no/such/page/${i}`, 50);
    const text = await (await fetch(`${app.metricsUrl}/metrics`)).text();
    assert.equal(
      series(text, "http_request_duration_seconds_count", {
        route: "Blog.show",
        method: "GET",
        status: "2xx",
        service: "blog",
      }),
      10_000,
    );
    assert.equal(series(text, "http_request_duration_seconds_count", { route: "unmatched", status: "4xx" }), 50);
    const durationSeries = text.split("\n").filter((line) => line.startsWith("http_request_duration_seconds_count{"));
    assert.equal(durationSeries.length, 2, durationSeries.join("\n"));
    assert.ok(!text.includes("post-1"), "no raw path in any label");
    assert.equal(series(text, "http_requests_in_flight", {}), 0);
    assert.ok(text.includes("nodejs_eventloop_lag_p99_seconds"), "the process metrics are there");
  });

  test("the app's port does not answer /metrics; the metrics port answers nothing else", async () => {
    assert.equal((await fetch(`${app.url}/metrics`)).status, 404);
    assert.equal((await fetch(`${app.metricsUrl}/blog/x`)).status, 404);
  });

  test("knex pool and query metrics of a PostgreSQL connection, and a backing service's outage state", async () => {
    db = await connect(await requireServer("postgres"));
    await load((i) => `${app.url}/blog/db-${i}`, 40, 4);
    const log = outageLog({ logger: { warn: () => undefined, info: () => undefined }, name: "test: the redis cache" });
    log.failed(new Error("ECONNREFUSED"));
    log.failed(new Error("ECONNREFUSED"));
    let text = await (await fetch(`${app.metricsUrl}/metrics`)).text();
    assert.ok(
      (series(text, "db_query_duration_seconds_count", { dialect: "postgres", operation: "raw", outcome: "ok" }) ??
        0) >= 40,
      text,
    );
    assert.equal(series(text, "db_pool_connections", { dialect: "postgres", state: "in_use" }), 0);
    assert.ok((series(text, "db_pool_connections", { dialect: "postgres", state: "idle" }) ?? 0) >= 1);
    assert.equal(series(text, "backing_service_down", { service: "test: the redis cache" }), 1);
    assert.equal(series(text, "backing_service_failures_total", { service: "test: the redis cache" }), 2);
    log.recovered();
    text = await (await fetch(`${app.metricsUrl}/metrics`)).text();
    assert.equal(series(text, "backing_service_down", { service: "test: the redis cache" }), 0);
  });

  test("an app's own metric is scraped with the framework's; a bad name is E_METRIC_NAME", async () => {
    const signups = defineCounter({ name: "test_signups_total", help: "Sign-ups.", labelNames: ["plan"] });
    signups.inc({ plan: "free" });
    const text = await (await fetch(`${app.metricsUrl}/metrics`)).text();
    assert.equal(series(text, "test_signups_total", { plan: "free" }), 1);
    assert.throws(() => defineCounter({ name: "signups-total", help: "x" }), E_METRIC_NAME);
    assert.throws(() => defineCounter({ name: "ok_total", help: "x", labelNames: ["__reserved"] }), E_METRIC_NAME);
  });
});

describe("metrics on the app's port", async () => {
  const token = "a-scrape-token-of-some-length";
  const app = await startApp({ Blog }, { metrics: { enabled: true, port: false, token } });
  after(() => app.host.close());

  test("/metrics needs the bearer token (401 without it or with another), and is not counted itself", async () => {
    await fetch(`${app.url}/blog/one`);
    const refused = await fetch(`${app.url}/metrics`);
    assert.equal(refused.status, 401);
    assert.match(refused.headers.get("www-authenticate") ?? "", /^Bearer/);
    assert.equal(
      (await fetch(`${app.url}/metrics`, { headers: { authorization: "Bearer a-scrape-token-of-some-lengtX" } }))
        .status,
      401,
    );
    const res = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200);
    const text = await res.text();
    assert.equal(series(text, "http_request_duration_seconds_count", { route: "Blog.show" }), 1);
    assert.equal(series(text, "http_request_duration_seconds_count", { route: "unmatched" }), undefined);
  });
});

describe("bad settings stop the start with a coded error", () => {
  test("metrics on the app's port without a token: E_METRICS_TOKEN_REQUIRED", async () => {
    await assert.rejects(startApp({ Blog }, { metrics: { enabled: true, port: false } }), E_METRICS_TOKEN_REQUIRED);
  });
  test("an invalid label name in metrics.labels, or prefix: E_METRIC_NAME", async () => {
    await assert.rejects(
      startApp({ Blog }, { metrics: { enabled: true, port: 0, labels: { "bad-label": "x" } } }),
      E_METRIC_NAME,
    );
    await assert.rejects(startApp({ Blog }, { metrics: { enabled: true, port: 0, prefix: "9shop_" } }), E_METRIC_NAME);
  });
  test("a wrong value: E_OBSERVABILITY_CONFIG naming the key; an unknown key: the host's unknown-key error", async () => {
    await assert.rejects(
      startApp({ Blog }, { metrics: { enabled: "maybe" } }),
      (error: Error) => error instanceof E_OBSERVABILITY_CONFIG && /metrics\.enabled/.test(error.message),
    );
    await assert.rejects(
      startApp({ Blog }, { metrics: { enabled: true, port: 0, buckets: [1, 0.5] } }),
      E_OBSERVABILITY_CONFIG,
    );
    await assert.rejects(startApp({ Blog }, { metrics: { enabeld: true } }), /enabeld/);
  });
  test("the metrics port listens on loopback unless told otherwise (metrics.host, or METRICS_HOST, which start sets to its --host)", async () => {
    const saved = process.env["METRICS_HOST"];
    delete process.env["METRICS_HOST"];
    try {
      const quiet = await startApp({ Blog }, { metrics: { enabled: true, port: 0 } });
      try {
        assert.match(quiet.plugin.metricsAddress() ?? "", /^127\.0\.0\.1:\d+$/, "no token, no host: loopback only");
      } finally {
        await quiet.host.close();
      }
      process.env["METRICS_HOST"] = "0.0.0.0";
      const told = await startApp({ Blog }, { metrics: { enabled: true, port: 0 } });
      try {
        assert.match(told.plugin.metricsAddress() ?? "", /^0\.0\.0\.0:\d+$/, "METRICS_HOST (start --host 0.0.0.0)");
      } finally {
        await told.host.close();
      }
      const config = await startApp({ Blog }, { metrics: { enabled: true, port: 0, host: "127.0.0.1" } });
      try {
        assert.match(config.plugin.metricsAddress() ?? "", /^127\.0\.0\.1:\d+$/, "metrics.host wins over METRICS_HOST");
      } finally {
        await config.host.close();
      }
    } finally {
      if (saved === undefined) delete process.env["METRICS_HOST"];
      else process.env["METRICS_HOST"] = saved;
    }
  });
  test("a metrics port in use: E_METRICS_PORT_IN_USE", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as import("node:net").AddressInfo).port;
    try {
      await assert.rejects(
        startApp({ Blog }, { metrics: { enabled: true, port, host: "127.0.0.1" } }),
        E_METRICS_PORT_IN_USE,
      );
    } finally {
      taken.close();
    }
  });
});

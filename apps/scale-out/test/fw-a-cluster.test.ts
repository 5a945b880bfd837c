// A scaffolded fw-a app as two `start` processes of 2
// workers each behind HAProxy (TLS at the balancer), sessions, cache and signals in a Redis of the
// test's own, its database on PostgreSQL.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { FW_A, prepareApp, productionEnv } from "../src/apps.js";
import { httpClient } from "@fwkit/test-servers";
import { startBalancer, startNode, startNodes, type AppNode, type Balancer } from "../src/cluster.js";
import { eventually } from "../src/processes.js";
import { createDatabase, startPrivateRedis, type Database, type PrivateRedis } from "../src/stores.js";

process.env["NODE_TLS_REJECT_UNAUTHORIZED"] = "0";
const VIA_TLS = { "x-forwarded-proto": "https" };
/** A connection per request, as the cluster runs always made: a node stopped between requests never leaves a dead keep-alive connection behind. */
const CLOSE = { connection: "close" };

describe("fw-a app on two nodes behind HAProxy", () => {
  const dir = mkdtempSync(join(tmpdir(), "scale-out-a-"));
  let redis: PrivateRedis;
  let db: Database;
  const nodes: AppNode[] = [];
  let balancer: Balancer;

  before(async () => {
    redis = await startPrivateRedis(dir);
    db = await createDatabase(`scaleout_a_${process.pid}`);
    const env = productionEnv({ dbUrl: db.url, redisUrl: redis.url }, `a${process.pid}`);
    const root = prepareApp(FW_A, dir, env);
    nodes.push(...(await startNodes([startNode(FW_A, root, "a1", env), startNode(FW_A, root, "a2", env)])));
    balancer = await startBalancer(dir, root, FW_A, nodes);
  });

  after(async () => {
    await balancer?.stop();
    await Promise.all(nodes.map((node) => node.proc.stop("SIGKILL")));
    await redis?.stop();
    db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("1. a session made through the balancer holds while requests alternate between nodes", async () => {
    const browser = httpClient(balancer.httpsUrl, { headers: CLOSE });
    const seen = new Set<string>();
    for (let i = 1; i <= 8; i++) {
      const visit = await browser.json<{ node: string; visits: number }>("/ops/visit/");
      assert.equal(visit.visits, i, `visit ${i} on ${visit.node} continues the same session`);
      seen.add(visit.node);
    }
    assert.deepEqual([...seen].sort(), ["a1", "a2"]);
    const me = await browser.json<{ secure: boolean; visits: number }>("/ops/whoami/");
    assert.equal(me.secure, true, "behind the TLS-terminating balancer the app sees HTTPS (trustProxy)");
    assert.equal(me.visits, 8);
  });

  test("1. a CSRF token issued by one node is accepted by the other (and a missing one is refused)", async () => {
    const onFirst = httpClient(nodes[0]!.url, { headers: { ...VIA_TLS, ...CLOSE } });
    const onSecond = onFirst.at(nodes[1]!.url);
    const { token, node } = await onFirst.json<{ token: string; node: string }>("/ops/token/");
    assert.equal(node, "a1");
    const refused = await onSecond.fetch("/ops/submit/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(refused.status, 403);
    const accepted = await onSecond.fetch("/ops/submit/", {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrf-token": token },
      body: "{}",
    });
    assert.equal(accepted.status, 200, await accepted.clone().text());
    assert.deepEqual(await accepted.json(), { ok: true, node: "a2" });
  });

  test("2. a cache entry and a signal sent on one node are seen on the other", async () => {
    const first = httpClient(nodes[0]!.url, { headers: CLOSE });
    const second = httpClient(nodes[1]!.url, { headers: CLOSE });
    await first.json("/ops/cache-set/shape/round/");
    assert.equal((await second.json<{ value: string | null }>("/ops/cache-get/shape/")).value, "round");
    const text = `hello-${Date.now()}`;
    await first.json(`/ops/ping/${text}/`);
    await eventually(
      "the signal on the other node",
      async () => {
        const { received } = await second.json<{ received: string[] }>("/ops/received/");
        return received.includes(text) ? true : undefined;
      },
      20_000,
    );
  });
});

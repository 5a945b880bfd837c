// The fast subset of the cluster checks: a scaffolded fw-b app with contrib auth, as two
// `start` processes of 2 workers each behind HAProxy (TLS at the balancer), sessions, cache,
// signals and login limits in a Redis of the test's own, its database on PostgreSQL.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { cliArgs, FW_B, prepareApp, productionEnv, runCommand } from "../src/apps.js";
import { httpClient, csrfFrom, type HttpClient } from "@fwkit/test-servers";
import { startSmtp, type SmtpServer } from "@fwkit/test-servers";
import { startBalancer, startNode, startNodes, type AppNode, type Balancer } from "../src/cluster.js";
import { eventually, freePort, launch } from "../src/processes.js";
import { createDatabase, startPrivateRedis, type Database, type PrivateRedis } from "../src/stores.js";

// The balancer's certificate is self-signed (made by the test).
process.env["NODE_TLS_REJECT_UNAUTHORIZED"] = "0";
// Direct requests to one node, as the balancer sends them (the app trusts the proxy headers).
const VIA_TLS = { "x-forwarded-proto": "https" };
/** A connection per request, as the cluster runs always made: a node stopped between requests never leaves a dead keep-alive connection behind. */
const CLOSE = { connection: "close" };
const redirected = (status: number) => status === 302 || status === 303;

describe("fw-b app on two nodes behind HAProxy", () => {
  const dir = mkdtempSync(join(tmpdir(), "scale-out-b-"));
  let redis: PrivateRedis;
  let db: Database;
  let root: string;
  let env: Record<string, string>;
  const nodes: AppNode[] = [];
  let balancer: Balancer;
  let smtp: SmtpServer | undefined;

  before(async () => {
    const t0 = Date.now();
    redis = await startPrivateRedis(dir);
    db = await createDatabase(`scaleout_b_${process.pid}`);
    env = productionEnv(
      { dbUrl: db.url, redisUrl: redis.url, mailUrl: (smtp = await startSmtp()).url },
      `b${process.pid}`,
    );
    root = prepareApp(FW_B, dir, env);
    const t1 = Date.now();
    nodes.push(...(await startNodes([startNode(FW_B, root, "b1", env), startNode(FW_B, root, "b2", env)])));
    const t2 = Date.now();
    balancer = await startBalancer(dir, root, FW_B, nodes);
    console.log(`set-up: init+build+migrate ${t1 - t0} ms, two nodes ${t2 - t1} ms, HAProxy ${Date.now() - t2} ms`);
  });

  after(async () => {
    await balancer?.stop();
    await smtp?.close();
    await Promise.all(nodes.map((node) => node.proc.stop("SIGKILL")));
    await redis?.stop();
    db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function signUp(browser: HttpClient, username: string, password: string): Promise<void> {
    const form = await browser.page("/signup");
    assert.equal(form.status, 200, form.text.slice(0, 300));
    const res = await browser.form("/signup", {
      _csrf_token: csrfFrom(form.text),
      username,
      email: `${username}@example.test`,
      name: username,
      password,
      password_confirm: password,
    });
    assert.ok(redirected(res.status), `${res.status} ${await res.text()}`);
    assert.equal(res.headers.get("location"), "/login");
  }

  async function logIn(browser: HttpClient, identifier: string, password: string): Promise<Response> {
    const form = await browser.page("/login");
    return browser.form("/login", { _csrf_token: csrfFrom(form.text), identifier, password });
  }

  test("1. a user who signs up and logs in through the balancer stays logged in while requests alternate between nodes", async () => {
    const browser = httpClient(balancer.httpsUrl, { headers: CLOSE });
    await signUp(browser, "ada", "ada-password-1");
    const login = await logIn(browser, "ada", "ada-password-1");
    assert.ok(redirected(login.status), String(login.status));
    assert.notEqual(login.headers.get("location"), "/login");
    const seen = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const me = await browser.json<{ node: string; user: string | null; secure: boolean; ip: string }>("/ops/whoami");
      assert.equal(me.user, "ada", `request ${i} (node ${me.node}) knows the user`);
      assert.equal(me.secure, true, "behind the TLS-terminating balancer the app sees HTTPS (trustProxy)");
      assert.equal(me.ip, "127.0.0.1");
      seen.add(me.node);
    }
    assert.deepEqual([...seen].sort(), ["b1", "b2"], "requests alternated between the two nodes");
    assert.equal((await browser.fetch("/account")).status, 200);
  });

  test("1. a CSRF token issued by one node is accepted by the other (and a wrong one is refused)", async () => {
    const onFirst = httpClient(nodes[0]!.url, { headers: { ...VIA_TLS, ...CLOSE } });
    const onSecond = onFirst.at(nodes[1]!.url);
    const form = await onFirst.page("/login");
    const token = csrfFrom(form.text);
    const wrong = await onSecond.form("/login", {
      _csrf_token: `${token}x`,
      identifier: "ada",
      password: "ada-password-1",
    });
    assert.equal(wrong.status, 403);
    const res = await onSecond.form("/login", { _csrf_token: token, identifier: "ada", password: "ada-password-1" });
    assert.ok(redirected(res.status), String(res.status));
    assert.notEqual(res.headers.get("location"), "/login");
    assert.equal(
      (await onFirst.json<{ user: string | null }>("/ops/whoami")).user,
      "ada",
      "the login made on the second node holds on the first",
    );
  });

  test("2. the login limiter counts failures across nodes", async () => {
    await signUp(httpClient(balancer.httpsUrl, { headers: CLOSE }), "bob", "bob-password-1");
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const node = nodes[i % 2]!;
      const res = await logIn(httpClient(node.url, { headers: { ...VIA_TLS, ...CLOSE } }), "bob", "not-his-password");
      statuses.push(redirected(res.status) ? 302 : res.status);
    }
    // A failed login goes back to the form (a redirect); over the limit it is 429.
    assert.deepEqual(statuses.slice(0, 5), [302, 302, 302, 302, 302]);
    assert.equal(statuses[5], 429, `the sixth failure (3 on each node) is over the limit of 5: ${statuses.join(",")}`);
  });

  test("2. a cache entry and a signal sent on one node are seen on the other", async () => {
    const first = httpClient(nodes[0]!.url, { headers: CLOSE });
    const second = httpClient(nodes[1]!.url, { headers: CLOSE });
    await first.json("/ops/cache-set/colour/teal");
    assert.equal((await second.json<{ value: string | null }>("/ops/cache-get/colour")).value, "teal");
    const text = `hello-${Date.now()}`;
    await first.json(`/ops/ping/${text}`);
    await eventually(
      "the signal on the other node",
      async () => {
        const { received } = await second.json<{ received: string[] }>("/ops/received");
        return received.includes(text) ? true : undefined;
      },
      20_000,
    );
  });

  test("2. `:maintenance on` run once puts every node in maintenance within a few seconds; off brings them back", async () => {
    runCommand(FW_B, root, [":maintenance", "on"], env);
    try {
      for (const node of nodes) {
        await eventually(
          `${node.name} in maintenance`,
          async () =>
            (await fetch(`${node.url}/`, { headers: { connection: "close" } })).status === 503 ? true : undefined,
          10_000,
        );
      }
      assert.equal(
        (await fetch(`${balancer.url}/readyz`)).status,
        200,
        "maintenance is not a readiness failure: nodes stay in the pool",
      );
    } finally {
      runCommand(FW_B, root, [":maintenance", "off"], env);
    }
    for (const node of nodes) {
      await eventually(
        `${node.name} back`,
        async () =>
          (await fetch(`${node.url}/`, { headers: { connection: "close" } })).status === 200 ? true : undefined,
        10_000,
      );
    }
  });

  test("bad input: an unreachable database at start is a non-zero exit naming the URL without its password", async () => {
    const port = await freePort();
    const start = launch(
      process.execPath,
      cliArgs(FW_B, ["start", "--workers", "2", "--port", String(port), "--host", "127.0.0.1", "--root", root]),
      {
        cwd: root,
        env: { ...process.env, NODE_OPTIONS: "", ...env, DB_URL: "postgres://app:hunter2-secret@127.0.0.1:1/app" },
      },
    );
    const { code } = await start.exited;
    assert.equal(code, 1);
    assert.match(
      start.output(),
      /E_WORKERS_FAILED: .*E_DB_UNREACHABLE: Cannot connect to the database at postgres:\/\/app:\*\*\*\*@127\.0\.0\.1:1\/app/,
    );
    assert.doesNotMatch(start.output(), /hunter2-secret/);
  });

  test("4. SIGTERM with a request in flight: it completes, the node exits 0, the balancer keeps serving from the other node", async () => {
    const node = nodes[0]!;
    const inFlight = fetch(`${node.url}/ops/slow/1500`, { headers: { connection: "close" } });
    // The request is in the app before the signal, however long a busy machine takes to pass it on.
    await node.proc.waitFor(/slow request started in \d+/, "the slow request to reach the app");
    node.proc.child.kill("SIGTERM");
    const res = await inFlight;
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { ok: true });
    assert.equal((await node.proc.exited).code, 0);
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${balancer.url}/ops/whoami`, { headers: { connection: "close" } });
      assert.equal(res.status, 200);
      assert.equal(((await res.json()) as { node: string }).node, "b2");
    }
  });
});

// The generated HAProxy and nginx configs in front of a real `start --workers 2` (the fixture app),
// run by the real haproxy and nginx: a POST whose worker is killed mid-request runs once (the
// client gets an error, never a second run), a GET is sent again and answered; a forged Host is
// refused (a bad port too); a client's X-Request-Id, traceparent and X-Forwarded-For entries do not reach
// the app's logs or ctx.ip; the app's private metrics path is refused; the app's own 503 passes through.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";
import { deployTarget, haproxyConfig, nginxConfig } from "../src/production/deploy/index.js";
import { eventually, freePort, killAll, runFixture, within, type Running } from "./production-support.js";

const TEST_MS = 120_000;
const fixtureRoot = fileURLToPath(new URL("./production-app/", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "fw-balancer-"));
const proxies: ChildProcess[] = [];
after(() => {
  for (const proxy of proxies) proxy.kill("SIGKILL");
  killAll();
  rmSync(dir, { recursive: true, force: true });
});

/** One answer, or status 0 and the reason when the connection failed or was closed unanswered. */
interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  readonly error?: string;
}

/** A request with exactly these headers (Host included), through node:http. */
function send(port: number, method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return within(
    `${method} ${path}`,
    new Promise<Answer>((resolve) => {
      const req = request(
        { host: "127.0.0.1", port, method, path, headers: { Host: "127.0.0.1", Connection: "close", ...headers } },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
          res.on("error", (error) => resolve({ status: 0, headers: {}, text, error: String(error) }));
        },
      );
      req.on("error", (error) => resolve({ status: 0, headers: {}, text: "", error: String(error) }));
      req.end();
    }),
    60_000,
  );
}

/** Starts a proxy process; it is killed after the file. */
function launch(command: string, args: readonly string[]): { child: ChildProcess; output: () => string } {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.on(
    "error",
    (error) => (output += `\n${command} could not start (apt-get install -y haproxy nginx): ${error.message}`),
  );
  proxies.push(child);
  return { child, output: () => output };
}

// The app's private metrics path is a custom one (the fixture answers it): the balancers must refuse it.
const target = deployTarget(fixtureRoot, "fixture", { hosts: ["127.0.0.1"], metricsPath: "/internal/stats" });
const FORGED_TRACE = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

/** The app, as one node of two workers, believing one proxy (TRUST_PROXY=1, as the deploy files set it). */
async function startNode(): Promise<{ app: Running; port: number }> {
  const port = await freePort();
  const app = runFixture(["start", "--workers", "2", "--port", String(port), "--host", "127.0.0.1"], {
    TRUST_PROXY: "1",
  });
  await app.waitFor(/with 2 workers/);
  return { app, port };
}

const proxyLogs: Array<() => string> = [];

async function startHaproxy(nodePort: number, edit: (text: string) => string = (text) => text): Promise<number> {
  const port = await freePort();
  const file = join(dir, `haproxy-${port}.cfg`);
  writeFileSync(
    file,
    edit(
      haproxyConfig(target, {
        bind: `127.0.0.1:${port}`,
        servers: [`127.0.0.1:${nodePort}`],
        tls: false,
        log: "stderr format raw local0 info",
        checkIntervalSeconds: 1,
      }),
    ),
  );
  const proxy = launch("haproxy", ["-f", file, "-db"]);
  proxyLogs.push(proxy.output);
  await eventually("HAProxy to pass requests to the app", async () => {
    if (proxy.child.exitCode !== null) throw new Error(`haproxy exited: ${proxy.output()}`);
    return (await send(port, "GET", "/pid")).status === 200 ? true : undefined;
  });
  return port;
}

async function startNginx(nodePort: number, servers: readonly string[] = [`127.0.0.1:${nodePort}`]): Promise<number> {
  const port = await freePort();
  const prefix = join(dir, `nginx-${port}`);
  mkdirSync(join(prefix, "logs"), { recursive: true });
  writeFileSync(join(prefix, "site.conf"), nginxConfig(target, { listen: `127.0.0.1:${port}`, servers, tls: false }));
  writeFileSync(
    join(prefix, "nginx.conf"),
    `daemon off;\n# One process: killing it after the tests leaves no worker behind.\nmaster_process off;\npid ${join(prefix, "nginx.pid")};\nerror_log ${join(prefix, "logs", "error.log")};\nevents {}\nhttp {\n  access_log off;\n  include ${join(prefix, "site.conf")};\n}\n`,
  );
  const proxy = launch("nginx", ["-p", prefix, "-c", join(prefix, "nginx.conf")]);
  await eventually("nginx to pass requests to the app", async () => {
    if (proxy.child.exitCode !== null) throw new Error(`nginx exited: ${proxy.output()}`);
    return (await send(port, "GET", "/pid")).status === 200 ? true : undefined;
  });
  return port;
}

let marks = 0;

/**
 * Sends a slow request through the proxy, kills the worker running it once it started, and counts
 * how many times the app started it.
 */
async function killMidRequest(
  app: Running,
  proxyPort: number,
  method: "GET" | "POST",
): Promise<{ answer: Answer; runs: number }> {
  // Both workers serving again (a worker killed by an earlier test has been replaced).
  const count = (pattern: RegExp) => (app.output().match(pattern) ?? []).length;
  await eventually("the killed workers to be replaced", async () =>
    count(/"worker-died"/g) === count(/"worker-replaced"/g) ? true : undefined,
  );
  const mark = `m${++marks}x${proxyPort}`;
  const answering = send(proxyPort, method, `/orders?mark=${mark}&ms=4000`);
  const started = new RegExp(`order ${method} ${mark} started in (\\d+)`);
  const pid = Number((await app.waitFor(started)).match(started)![1]);
  process.kill(pid, "SIGKILL");
  const answer = await answering;
  await app.waitFor(new RegExp(`"worker-died","worker":${pid}`));
  // A second run, if any, started before the client got its answer (it is that run's answer).
  const runs = (app.output().match(new RegExp(`order ${method} ${mark} started`, "g")) ?? []).length;
  return { answer, runs };
}

describe("the generated HAProxy config in front of start --workers 2", () => {
  let node: { app: Running; port: number };
  let proxy: number;
  before(async () => {
    node = await startNode();
    proxy = await startHaproxy(node.port);
  });

  test("a POST whose worker is killed mid-request runs once: the client gets an error, not a second run", {
    timeout: TEST_MS,
  }, async () => {
    const { answer, runs } = await killMidRequest(node.app, proxy, "POST");
    assert.equal(runs, 1, `the POST ran ${runs} times; answer ${answer.status} ${answer.text}`);
    assert.ok(
      answer.status === 0 || answer.status >= 500,
      `the client sees the failure: ${answer.status} ${answer.text}`,
    );
  });

  test("a GET whose worker is killed mid-request is sent to another worker and answered", {
    timeout: TEST_MS,
  }, async () => {
    const { answer, runs } = await killMidRequest(node.app, proxy, "GET");
    assert.equal(
      answer.status,
      200,
      `${answer.error ?? answer.text}${node.app.recent()}\n${proxyLogs.map((log) => log()).join("\n")}`,
    );
    assert.equal(runs, 2);
  });

  test("the check bites: the same config without the safe-methods rule runs the POST twice", {
    timeout: TEST_MS,
  }, async () => {
    const loose = await startHaproxy(node.port, (text) => text.replace(/^ *http-request disable-l7-retry .*$/m, ""));
    const { runs } = await killMidRequest(node.app, loose, "POST");
    assert.equal(runs, 2);
  });

  test("a Host other than the app's is refused with 421, before anything reaches the app", {
    timeout: TEST_MS,
  }, async () => {
    const forged = await send(proxy, "POST", "/lost-password", { Host: "evil.example" });
    assert.equal(forged.status, 421);
    assert.equal((await send(proxy, "GET", "/orders/where", { Host: "127.0.0.1:80" })).status, 200);
    assert.equal((await send(proxy, "GET", "/orders/where", { Host: "127.0.0.1.evil.example" })).status, 421);
    // A port that is no port is another host: the app would see it in X-Forwarded-Host.
    for (const host of ["127.0.0.1:evil", "127.0.0.1:80@evil.example", "127.0.0.1:", "127.0.0.1:999999"])
      assert.equal((await send(proxy, "GET", "/orders/where", { Host: host })).status, 421, host);
  });

  test("a client's traceparent does not reach the app, and the app's private metrics path is refused", {
    timeout: TEST_MS,
  }, async () => {
    const answer = await send(proxy, "GET", "/orders/where", {
      traceparent: FORGED_TRACE,
      tracestate: "x=1",
      baggage: "k=forged",
    });
    const reached = JSON.parse(answer.text) as { traceparent: unknown; baggage: unknown };
    assert.deepEqual([reached.traceparent, reached.baggage], [null, null], answer.text);
    assert.equal((await send(node.port, "GET", "/internal/stats")).status, 200, "the app itself answers the path");
    assert.equal((await send(proxy, "GET", "/internal/stats")).status, 404);
    assert.equal((await send(proxy, "GET", "/internal/stats/x")).status, 404);
  });

  test("a client's X-Request-Id is replaced by the balancer's, and forged X-Forwarded-For entries do not change ctx.ip", {
    timeout: TEST_MS,
  }, async () => {
    const seen = await Promise.all(
      [1, 2, 3].map((n) =>
        send(proxy, "GET", "/orders/where", {
          "X-Request-Id": "someone-elses-request",
          "X-Forwarded-For": `198.51.100.${n}`,
        }),
      ),
    );
    for (const answer of seen) {
      const body = JSON.parse(answer.text) as { ip: string; id: string; host: string };
      assert.equal(body.ip, "127.0.0.1", answer.text);
      assert.notEqual(body.id, "someone-elses-request");
      assert.match(body.id, /^[0-9A-F]{20,}$/, "the balancer's unique id");
      assert.equal(answer.headers["x-request-id"], body.id);
      assert.equal(body.host, "127.0.0.1");
    }
    assert.equal(new Set(seen.map((answer) => (JSON.parse(answer.text) as { id: string }).id)).size, 3);
  });
});

describe("the generated nginx config in front of start --workers 2", () => {
  let node: { app: Running; port: number };
  let proxy: number;
  before(async () => {
    node = await startNode();
    proxy = await startNginx(node.port);
  });

  test("a POST whose worker is killed mid-request runs once: the client gets an error, not a second run", {
    timeout: TEST_MS,
  }, async () => {
    const { answer, runs } = await killMidRequest(node.app, proxy, "POST");
    assert.equal(runs, 1, `the POST ran ${runs} times; answer ${answer.status} ${answer.text}`);
    assert.ok(answer.status === 0 || answer.status >= 500, `the client sees the failure: ${answer.status}`);
  });

  test("a rolling restart (SIGHUP) under POST load: nginx's idle connections to draining workers cost no POST", {
    timeout: TEST_MS,
  }, async () => {
    const count = (pattern: RegExp) => (node.app.output().match(pattern) ?? []).length;
    await eventually("the killed workers to be replaced", async () =>
      count(/"worker-died"/g) === count(/"worker-replaced"/g) ? true : undefined,
    );
    const restarts = count(/"rolling-restart-done"/g);
    const statuses = new Map<number, number>();
    let loading = true;
    const client = async () => {
      while (loading) {
        const { status } = await send(proxy, "POST", "/quick");
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    const clients = Array.from({ length: 6 }, client);
    // Answers are counted, not time: load before the restart, and again after it, however slowly a
    // busy machine answers.
    const answered = () => [...statuses.values()].reduce((sum, n) => sum + n, 0);
    await eventually("load before the restart", async () => (answered() >= 30 ? true : undefined));
    process.kill(node.app.child.pid!, "SIGHUP");
    await eventually("the rolling restart to finish", async () =>
      count(/"rolling-restart-done"/g) > restarts ? true : undefined,
    );
    const afterRestart = answered();
    await eventually("load after the restart", async () => (answered() >= afterRestart + 30 ? true : undefined));
    loading = false;
    await Promise.all(clients);
    assert.ok((statuses.get(200) ?? 0) > 50, `enough load: ${JSON.stringify([...statuses])}`);
    assert.deepEqual([...statuses.keys()], [200], `every POST answered 200: ${JSON.stringify([...statuses])}`);
  });

  test("a Host other than the app's gets no answer; nginx assigns the request id and appends the real address", {
    timeout: TEST_MS,
  }, async () => {
    const forged = await send(proxy, "GET", "/orders/where", { Host: "evil.example" });
    assert.equal(forged.status, 0, `closed without an answer: ${forged.status} ${forged.text}`);
    const answer = await send(proxy, "GET", "/orders/where", {
      "X-Request-Id": "someone-elses-request",
      "X-Forwarded-For": "198.51.100.7",
    });
    const body = JSON.parse(answer.text) as { ip: string; id: string };
    assert.equal(body.ip, "127.0.0.1");
    assert.match(body.id, /^[0-9a-f]{32}$/, "nginx's $request_id");
    assert.equal(answer.headers["server"], "nginx", "no version in the Server header");
  });

  test("the health block assigns nginx's request id too; a client's traceparent and the private metrics path never pass", {
    timeout: TEST_MS,
  }, async () => {
    const health = await send(proxy, "GET", target.healthPath, { "X-Request-Id": "someone-elses-request" });
    assert.equal(health.status, 200, health.text);
    assert.match(String(health.headers["x-request-id"]), /^[0-9a-f]{32}$/, "nginx's id, not the client's");
    const answer = await send(proxy, "GET", "/orders/where", {
      traceparent: FORGED_TRACE,
      tracestate: "x=1",
      baggage: "k=forged",
    });
    const reached = JSON.parse(answer.text) as { traceparent: unknown; baggage: unknown };
    assert.deepEqual([reached.traceparent, reached.baggage], [null, null], answer.text);
    assert.equal((await send(node.port, "GET", "/internal/stats")).status, 200, "the app itself answers the path");
    assert.equal((await send(proxy, "GET", "/internal/stats")).status, 404);
    assert.equal((await send(proxy, "GET", "/internal/stats/x")).status, 404);
  });

  test("the app's own 503s pass through and take no process out: no 502 from nginx", {
    timeout: TEST_MS,
  }, async () => {
    // Two upstream entries (nginx never marks a lone server down), both this node.
    const twice = await startNginx(node.port, [`127.0.0.1:${node.port}`, `127.0.0.1:${node.port}`]);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await send(twice, "GET", "/orders/unavailable")).status);
    assert.deepEqual(statuses, Array(8).fill(503), "every 503 is the app's, passed through");
    assert.equal((await send(twice, "GET", "/pid")).status, 200, "no process was taken out");
  });
});

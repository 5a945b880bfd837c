// A set-up as docs/deployment.md describes it: N `start` processes of an app (2 workers each) on
// their own ports, and HAProxy (from Debian) in front with the configuration the deploy command
// generates, health-checking /readyz.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deployTarget, haproxyConfig } from "@fwkit/cli";
import { cliArgs, type Framework } from "./apps.js";
import { eventually, freePort, launch, type Proc } from "./processes.js";

/** One `start` process of an app. */
export interface AppNode {
  readonly name: string;
  readonly port: number;
  readonly url: string;
  proc: Proc;
  /** Starts the process again (after a stop or a kill) on the same port. */
  restart(): Promise<void>;
}

/** Starts `start --workers N` for an app on a free port; resolves when every worker answers. */
export async function startNode(
  framework: Framework,
  root: string,
  name: string,
  env: Record<string, string>,
  workers = 2,
): Promise<AppNode> {
  const port = await freePort();
  const spawnNode = async () => {
    const proc = launch(
      process.execPath,
      cliArgs(framework, [
        "start",
        "--workers",
        String(workers),
        "--port",
        String(port),
        "--host",
        "127.0.0.1",
        "--root",
        root,
      ]),
      {
        cwd: root,
        env: { ...process.env, NODE_OPTIONS: "", ...env, NODE_NAME: name },
      },
    );
    await proc.waitFor(/Serving on http:\/\/127\.0\.0\.1:\d+ (with \d+ workers|in this process)/, `${name} serving`);
    return proc;
  };
  const node: AppNode = {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    proc: await spawnNode(),
    async restart() {
      node.proc = await spawnNode();
    },
  };
  return node;
}

/**
 * Waits for nodes started together; if one fails, the ones that started are stopped before the
 * error is thrown (so a failed set-up leaves no process behind).
 */
export async function startNodes(starting: ReadonlyArray<Promise<AppNode>>): Promise<AppNode[]> {
  const settled = await Promise.allSettled(starting);
  const failed = settled.find((result): result is PromiseRejectedResult => result.status === "rejected");
  const started = settled
    .filter((result): result is PromiseFulfilledResult<AppNode> => result.status === "fulfilled")
    .map((result) => result.value);
  if (!failed) return started;
  await Promise.all(started.map((node) => node.proc.stop("SIGKILL")));
  throw failed.reason;
}

/** HAProxy in front of the nodes. */
export interface Balancer {
  /** Plain HTTP (the load runs), and HTTPS ending at HAProxy (the browser-like tests). */
  readonly url: string;
  readonly httpsUrl: string;
  readonly statsUrl: string;
  readonly proc: Proc;
  stop(): Promise<void>;
  /** Waits until HAProxy's health checks see `count` servers up. */
  waitUp(count: number): Promise<void>;
}

/** Starts haproxy (fails naming it when it is missing) with the generated configuration. */
export async function startBalancer(
  dir: string,
  appRoot: string,
  framework: Framework,
  nodes: readonly AppNode[],
): Promise<Balancer> {
  const port = await freePort();
  const stats = await freePort();
  const tlsPort = await freePort();
  const file = join(dir, `haproxy-${port}.cfg`);
  // TLS ends at the balancer, as in production: a self-signed certificate for 127.0.0.1.
  const pem = join(dir, "site.pem");
  const made = spawnSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      `${pem}.key`,
      "-out",
      `${pem}.crt`,
      "-days",
      "2",
      "-subj",
      "/CN=127.0.0.1",
    ],
    { encoding: "utf8" },
  );
  if (made.status !== 0) assert.fail(`openssl could not make a test certificate: ${made.stderr}`);
  writeFileSync(pem, readFileSync(`${pem}.crt`, "utf8") + readFileSync(`${pem}.key`, "utf8"));
  const target = deployTarget(appRoot, framework.name);
  writeFileSync(
    file,
    haproxyConfig(target, {
      bind: `127.0.0.1:${port}`,
      servers: nodes.map((node) => `127.0.0.1:${node.port}`),
      log: "stderr format raw local0 notice",
      stats: `127.0.0.1:${stats}`,
      checkIntervalSeconds: 1,
      tls: { bind: `127.0.0.1:${tlsPort}`, pem },
      plainHttp: "serve",
      hosts: ["127.0.0.1", "localhost"],
    }),
  );
  const proc = launch("haproxy", ["-f", file, "-db"]);
  const statsUrl = `http://127.0.0.1:${stats}/;csv`;
  const upCount = async () => {
    const csv = await (await fetch(statsUrl)).text();
    return csv.split("\n").filter((line) => /^[^,]+,[^,]+\d,/.test(line) && line.includes(",UP,")).length;
  };
  const balancer: Balancer = {
    url: `http://127.0.0.1:${port}`,
    httpsUrl: `https://127.0.0.1:${tlsPort}`,
    statsUrl,
    proc,
    async stop() {
      await proc.stop("SIGUSR1");
    },
    async waitUp(count) {
      await eventually(
        `HAProxy to see ${count} servers up`,
        async () => ((await upCount()) >= count ? true : undefined),
        60_000,
      );
    },
  };
  await eventually("haproxy listening (apt-get install -y haproxy if it is missing)", async () => {
    if (proc.child.exitCode !== null) assert.fail(`haproxy exited: ${proc.output()}`);
    await fetch(statsUrl);
    return true;
  });
  await balancer.waitUp(nodes.length);
  return balancer;
}

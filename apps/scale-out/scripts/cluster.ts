// `pnpm test:cluster`: the cluster's fault and release phases under load (the
// slow part that npm test leaves out).
// A scaffolded fw-b app (contrib auth on) runs as two `start` processes (2 workers each) behind
// HAProxy, with a Redis and a PostgreSQL of the run's own; autocannon sends bounded load through
// the balancer (default 20 s, 50 connections per phase) while one thing goes wrong per phase.
// Prints one table: requests, statuses, errors, RSS of the nodes before and after.
// Then the jobs phase: two nodes and two job workers on one Redis (test/jobs-cluster.test.ts with
// --jobs N jobs, default 1,000): every job once, a worker SIGKILLed, a schedule, a mail with SMTP
// down, Redis stopped 10 s, a worker's SIGTERM; prints its figures.
// Options: --duration S, --connections N, --app fw-b|fw-a, --only PHASE,PHASE, --jobs N.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSmtp } from "@fwkit/test-servers";
import autocannon from "autocannon";
import { cliArgs, FW_A, FW_B, prepareApp, productionEnv, runCommand, writeNextRelease } from "../src/apps.js";
import { httpClient, csrfFrom, type HttpClient } from "@fwkit/test-servers";
import { startBalancer, startNode, startNodes, type AppNode } from "../src/cluster.js";
import { eventually, launch } from "../src/processes.js";
import { createDatabase, startPrivatePostgres, startPrivateRedis, type PrivatePostgres } from "../src/stores.js";

/** A connection per request, as the cluster runs always made: a node stopped between requests never leaves a dead keep-alive connection behind. */
const CLOSE = { connection: "close" };

process.env["NODE_TLS_REJECT_UNAUTHORIZED"] = "0";
const arg = (name: string, fallback: string) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1]! : fallback;
};
const duration = Number(arg("duration", "20"));
// --only release,kill-worker: only those phases (baseline, sighup, kill-primary, redis, postgres,
// kill-worker, release (with its rollback), release-faults, sigterm, jobs), with the same set-up.
const only = arg("only", "").split(",").filter(Boolean);
const want = (key: string) => only.length === 0 || only.includes(key);
const connections = Number(arg("connections", "50"));
const framework = arg("app", "fw-b") === "fw-a" ? FW_A : FW_B;
const slash = framework === FW_A ? "/" : "";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** RSS (MB) of a node: its primary and every worker. */
function rssOf(node: AppNode): number {
  const pid = node.proc.child.pid;
  if (!pid || node.proc.child.exitCode !== null) return 0;
  const children = execFileSync("sh", ["-c", `pgrep -P ${pid} || true`], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean);
  const kb = execFileSync("sh", ["-c", `ps -o rss= -p ${[pid, ...children].join(",")} || true`], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean)
    .reduce((sum, line) => sum + Number(line.trim()), 0);
  return Math.round(kb / 1024);
}

interface Row {
  phase: string;
  requests: number;
  statuses: string;
  errors: number;
  timeouts: number;
  rssBefore: string;
  rssAfter: string;
  note: string;
}
const rows: Row[] = [];

/** The pid of a worker of `node` (straight at the node, a new connection). */
async function workerPid(node: AppNode): Promise<number> {
  const res = await fetch(`${node.url}/ops/whoami${slash}`, { headers: { connection: "close" } });
  return ((await res.json()) as { pid: number }).pid;
}

/** Sends SIGHUP to each node in turn and waits for its rolling restart to finish. */
async function rollNodes(nodes: readonly AppNode[]): Promise<void> {
  for (const node of nodes) {
    const done = (node.proc.output().match(/rolling restart done/g) ?? []).length;
    node.proc.child.kill("SIGHUP");
    await eventually(
      `${node.name}'s rolling restart`,
      async () => ((node.proc.output().match(/rolling restart done/g) ?? []).length > done ? true : undefined),
      180_000,
    );
  }
}

/** One row of the table; `untilDone`: the load runs until `during` is over (then 2 s more), not `--duration`. */
async function phase(
  name: string,
  url: string,
  nodes: AppNode[],
  during: () => Promise<string>,
  untilDone = false,
): Promise<void> {
  const rssBefore = nodes.map((node) => `${node.name} ${rssOf(node)}`).join(", ");
  // A request slower than 30 s (HAProxy's server timeout) counts as a timeout.
  const load = autocannon({ url, connections, duration: untilDone ? 900 : duration, timeout: 30 });
  const note = await during();
  if (untilDone) {
    await sleep(2000);
    (load as unknown as { stop(): void }).stop();
  }
  const result = await load;
  const statuses = Object.entries(
    (result as unknown as { statusCodeStats: Record<string, { count: number }> }).statusCodeStats ?? {},
  )
    .map(([code, { count }]) => `${code}: ${count}`)
    .join(", ");
  const row: Row = {
    phase: name,
    requests: result.requests.total,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    rssBefore,
    rssAfter: nodes.map((node) => `${node.name} ${rssOf(node)}`).join(", "),
    note,
  };
  rows.push(row);
  console.log(`${name}: ${JSON.stringify(row)}`);
}

async function logIn(base: string): Promise<HttpClient> {
  const browser = httpClient(base, { headers: CLOSE });
  if (framework === FW_A) {
    await browser.json("/ops/visit/");
    return browser;
  }
  const signup = await browser.page("/signup");
  await browser.form("/signup", {
    _csrf_token: csrfFrom(signup.text),
    username: "loadtester",
    email: "load@example.test",
    name: "Load",
    password: "load-password-1",
    password_confirm: "load-password-1",
  });
  const login = await browser.page("/login");
  const res = await browser.form("/login", {
    _csrf_token: csrfFrom(login.text),
    identifier: "loadtester",
    password: "load-password-1",
  });
  assert.ok(res.status === 302 || res.status === 303, `login: ${res.status}`);
  return browser;
}

async function sessionHolds(browser: HttpClient): Promise<boolean> {
  const me = await browser.json<{ user?: string | null; visits?: number }>(`/ops/whoami${slash}`);
  return framework === FW_A ? (me.visits ?? 0) >= 1 : me.user === "loadtester";
}

/** The jobs phase: the jobs cluster test with --jobs N jobs; prints its figures and whether it passed. */
function jobsPhase(): boolean {
  const count = arg("jobs", "1000");
  console.log(
    `\njobs: two start nodes and two :work processes on one Redis, ${count} jobs (test/jobs-cluster.test.ts)`,
  );
  const run = spawnSync(
    process.execPath,
    ["../../scripts/run-tests.mjs", "--test-timeout=900000", "test/jobs-cluster.test.ts"],
    {
      cwd: new URL("..", import.meta.url).pathname,
      env: { ...process.env, JOBS_COUNT: count },
      encoding: "utf8",
    },
  );
  const output = `${run.stdout}${run.stderr}`;
  for (const line of output.split("\n"))
    if (/^#?\s*jobs: /.test(line.trim())) console.log(line.trim().replace(/^#\s*/, ""));
  const passed = run.status === 0;
  console.log(passed ? "jobs: every case passed" : `jobs: FAILED\n${output.slice(-4000)}`);
  return passed;
}

// Only the jobs phase: it sets up nodes of its own, so the load set-up is skipped.
if (only.length === 1 && only[0] === "jobs") process.exit(jobsPhase() ? 0 : 1);

const dir = mkdtempSync(join(tmpdir(), "scale-out-load-"));
// The private PostgreSQL runs as the postgres user, which must reach its folder.
chmodSync(dir, 0o755);
let postgres: PrivatePostgres | undefined;
const nodes: AppNode[] = [];
let stopBalancer: (() => Promise<void>) | undefined;
let stopRedis: (() => Promise<void>) | undefined;
let stopSmtp: (() => Promise<void>) | undefined;
try {
  const redis = await startPrivateRedis(dir);
  stopRedis = () => redis.stop();
  let dbUrl: string;
  let pgNote = "";
  try {
    postgres = await startPrivatePostgres(join(dir, "pg"));
    execFileSync("psql", [
      "-h",
      "127.0.0.1",
      "-p",
      new URL(postgres.url).port,
      "-U",
      "postgres",
      "-c",
      "CREATE DATABASE scaleout",
    ]);
    dbUrl = postgres.url.replace(/\/postgres$/, "/scaleout");
  } catch (error) {
    // Without a private cluster the shared server cannot be restarted: that phase is skipped.
    pgNote = `private PostgreSQL unavailable (${(error as Error).message.split("\n")[0]}); the PostgreSQL restart phase is skipped`;
    console.log(pgNote);
    postgres = undefined;
    dbUrl = (await createDatabase(`scaleout_load_${process.pid}`)).url;
  }
  const smtp = await startSmtp();
  stopSmtp = () => smtp.close();
  const env = productionEnv({ dbUrl, redisUrl: redis.url, mailUrl: smtp.url }, "load");
  const root = prepareApp(framework, dir, env);
  // The nodes serve releases/<id> through the current link, as docs/deployment.md releases.
  const firstRelease = /current -> releases\/(\S+)/.exec(
    runCommand(framework, root, [framework.commands.release], env),
  )![1]!;
  nodes.push(
    ...(await startNodes([
      startNode(framework, root, `${framework.name}-1`, env),
      startNode(framework, root, `${framework.name}-2`, env),
    ])),
  );
  const balancer = await startBalancer(dir, root, framework, nodes);
  stopBalancer = () => balancer.stop();
  const target = `${balancer.url}/ops/touch${slash}`;
  const session = await logIn(balancer.httpsUrl);

  if (want("baseline")) {
    await phase("baseline", target, nodes, async () => "no disruption");
  }

  if (want("sighup")) {
    await phase("SIGHUP rolling restart of node 1", target, nodes, async () => {
      await sleep(3000);
      nodes[0]!.proc.child.kill("SIGHUP");
      await nodes[0]!.proc.waitFor(/rolling restart done/);
      return "node 1's workers replaced one at a time";
    });
  }

  if (want("kill-primary")) {
    await phase("SIGKILL of node 1 (primary)", target, nodes, async () => {
      await sleep(5000);
      // Three-second requests straight at node 1 while its primary is killed: its workers finish them.
      const slow = [1, 2, 3, 4].map(() =>
        fetch(`${nodes[0]!.url}/ops/slow/3000${slash}`, {
          headers: { connection: "close" },
          signal: AbortSignal.timeout(30_000),
        }).then(
          (res) => res.status,
          () => 0,
        ),
      );
      await sleep(1000);
      nodes[0]!.proc.child.kill("SIGKILL");
      const finished = (await Promise.all(slow)).filter((status) => status === 200).length;
      return `node 1 killed; ${finished} of 4 three-second requests straight at it finished with 200; HAProxy takes it out after failed checks`;
    });
    // Node 1 comes back outside the measured phases.
    await nodes[0]!.proc.exited;
    await sleep(1000);
    await nodes[0]!.restart();
    await balancer.waitUp(2);
  }

  if (want("redis")) {
    await phase("Redis stopped 10 s", target, nodes, async () => {
      await sleep(3000);
      await redis.stop();
      await sleep(10_000);
      await redis.start();
      return "Redis restarted with its append-only file";
    });
    await balancer.waitUp(2);
    const afterRedis = await sessionHolds(session);
    rows.at(-1)!.note += afterRedis
      ? "; the session made before the outage is still valid"
      : "; THE SESSION MADE BEFORE THE OUTAGE WAS LOST";
  }

  if (want("postgres")) {
    if (postgres) {
      const pg = postgres;
      await phase("PostgreSQL restarted", target, nodes, async () => {
        await sleep(3000);
        await pg.restart();
        return "pg_ctl restart (fast shutdown)";
      });
      await balancer.waitUp(2);
      rows.at(-1)!.note += (await sessionHolds(session)) ? "; session still valid" : "; SESSION LOST";
    } else {
      rows.push({
        phase: "PostgreSQL restarted",
        requests: 0,
        statuses: "-",
        errors: 0,
        timeouts: 0,
        rssBefore: "-",
        rssAfter: "-",
        note: pgNote,
      });
    }
  }

  if (want("kill-worker")) {
    for (const [where, url] of [
      ["straight at node 1", `${nodes[0]!.url}/ops/touch${slash}`],
      ["through HAProxy", target],
    ] as const) {
      await phase(`SIGKILL of a worker of node 1, ${where}`, url, nodes, async () => {
        await sleep(5000);
        const pid = await workerPid(nodes[0]!);
        const replaced = (nodes[0]!.proc.output().match(/replaced the one that died/g) ?? []).length;
        process.kill(pid, "SIGKILL");
        await eventually(
          "the replacement",
          async () =>
            (nodes[0]!.proc.output().match(/replaced the one that died/g) ?? []).length > replaced ? true : undefined,
          60_000,
        );
        const handed = /ended holding (\d+) connection/.exec(
          nodes[0]!.proc
            .output()
            .split("\n")
            .filter((line) => line.includes(`worker ${pid} ended holding`))
            .join("\n"),
        );
        return `worker ${pid} killed and replaced; ${handed ? `${handed[1]} connection(s) it never took handed to the other worker` : "it held no connection it had not taken"}`;
      });
    }
  }

  if (want("release")) {
    await phase(
      "release with a migration, a worker of node 1 killed while it migrates, then SIGHUP of each node",
      target,
      nodes,
      async () => {
        await sleep(3000);
        writeNextRelease(framework, root, 8);
        const release = launch(process.execPath, cliArgs(framework, [framework.commands.release, "--root", root]), {
          cwd: root,
          env: { ...process.env, NODE_OPTIONS: "", ...env },
        });
        await release.waitFor(/2\. Migrations of release/, "the release's migration step");
        await sleep(1000);
        process.kill(await workerPid(nodes[0]!), "SIGKILL");
        const { code } = await release.exited;
        if (code !== 0) throw new Error(`the release failed:\n${release.output()}`);
        await rollNodes(nodes);
        const fresh = (await (
          await fetch(`${nodes[1]!.url}/ops/touch${slash}`, { headers: { connection: "close" } })
        ).json()) as Record<string, unknown>;
        return `a crash replacement during the migration served the old release; after SIGHUP the new release serves (${"withSku" in fresh ? "reads the new column" : "DID NOT SWITCH"})`;
      },
      true,
    );

    await phase(
      "rollback, then SIGHUP of each node",
      target,
      nodes,
      async () => {
        await sleep(3000);
        const back = runCommand(framework, root, [framework.commands.releaseRollback], env);
        await rollNodes(nodes);
        const old = (await (
          await fetch(`${nodes[1]!.url}/ops/touch${slash}`, { headers: { connection: "close" } })
        ).json()) as Record<string, unknown>;
        return `${back.includes(`current -> releases/${firstRelease}`) ? `current back at ${firstRelease}` : "ROLLBACK DID NOT SWITCH"}; the release before serves again on the new schema (${"withSku" in old ? "STILL NEW CODE" : "old code"})`;
      },
      true,
    );
  }

  if (want("release-faults")) {
    await phase(
      "release SIGKILLed during its migration, the next release, SIGHUP of each node, then rollback and SIGHUP",
      target,
      nodes,
      async () => {
        await sleep(3000);
        writeNextRelease(framework, root, 8);
        const killed = launch(process.execPath, cliArgs(framework, [framework.commands.release, "--root", root]), {
          cwd: root,
          env: { ...process.env, NODE_OPTIONS: "", ...env },
        });
        await killed.waitFor(/2\. Migrations of release/, "the release's migration step");
        const built = /Built release (\S+):/.exec(killed.output())![1]!;
        await sleep(1000);
        killed.child.kill("SIGKILL");
        await killed.exited;
        // The migrate child notices its release command is gone and stops (the database rolls its
        // transaction back); give it a moment, then release again.
        await sleep(2000);
        const next = runCommand(framework, root, [framework.commands.release], env);
        const applied = /Migrations applied: ([^\n]*)/.exec(next)?.[1] ?? "NOT SAID";
        const pruned = next.includes(built) ? `the killed build ${built} removed` : `the killed build ${built} LEFT`;
        await rollNodes(nodes);
        const back = runCommand(framework, root, [framework.commands.releaseRollback], env);
        await rollNodes(nodes);
        const old = (await (
          await fetch(`${nodes[1]!.url}/ops/touch${slash}`, { headers: { connection: "close" } })
        ).json()) as Record<string, unknown>;
        return `next release: migrations applied ${applied}; ${pruned}; rollback ${back.includes(`current -> releases/${firstRelease}`) ? `to ${firstRelease}, the release that served` : `NOT to ${firstRelease}`} (${"withSku" in old ? "STILL NEW CODE" : "old code"})`;
      },
      true,
    );

    await phase(
      "release --keep 1 while both nodes serve the release before (no SIGHUP), then SIGHUP of each node",
      target,
      nodes,
      async () => {
        await sleep(3000);
        const serving = /current -> releases\/(\S+)/.exec(
          runCommand(framework, root, [framework.commands.release, "--keep", "1"], env),
        );
        const folders = spawnSync("ls", [join(root, "releases")], { encoding: "utf8" }).stdout.split("\n");
        const ready = await fetch(`${nodes[0]!.url}/readyz`, { headers: { connection: "close" } });
        await rollNodes(nodes);
        return `current -> ${serving?.[1]}; the release the workers serve from ${folders.includes(firstRelease) ? "kept" : "DELETED"}; node 1 /readyz ${ready.status}`;
      },
      true,
    );
  }

  if (want("sigterm")) {
    let exitCode: number | null = null;
    await phase("SIGTERM of node 2 under load", target, nodes, async () => {
      await sleep(5000);
      nodes[1]!.proc.child.kill("SIGTERM");
      exitCode = (await nodes[1]!.proc.exited).code;
      return `node 2 drained and exited with ${exitCode}`;
    });
  }

  console.log(
    `\n${framework.name}: ${connections} connections, ${duration} s per phase, GET /ops/touch${slash} (a Redis read and a PostgreSQL query) through HAProxy\n`,
  );
  console.log(
    "| phase | requests | statuses | connection errors | timeouts | RSS MB before | RSS MB after | what happened |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const row of rows)
    console.log(
      `| ${row.phase} | ${row.requests} | ${row.statuses} | ${row.errors} | ${row.timeouts} | ${row.rssBefore} | ${row.rssAfter} | ${row.note} |`,
    );
} finally {
  await stopBalancer?.();
  await Promise.all(nodes.map((node) => node.proc.stop("SIGKILL")));
  await postgres?.close();
  await stopSmtp?.();
  await stopRedis?.();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(!want("jobs") || jobsPhase() ? 0 : 1);

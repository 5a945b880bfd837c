// A POST whose worker is killed after it wrote its row, through the generated HAProxy config, with
// a client that sends it again by itself: curl over HTTP/2 (HAProxy answers the cut stream with
// REFUSED_STREAM, which tells a client it may retry) and over a reused HTTP/1.1 connection
// (HAProxy closes it without an answer, and curl retries on a fresh one). Without a key the retry
// writes a second row; with an Idempotency-Key on an @idempotent route the retry finds the key
// (in Redis, shared by the workers) and gets 409, and the order table keeps exactly one row.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";
import { FW_B, productionEnv, runCommand, scaffoldApp } from "../src/apps.js";
import { startSmtp, type SmtpServer } from "@fwkit/test-servers";
import { startBalancer, startNode, startNodes, type AppNode, type Balancer } from "../src/cluster.js";
import { createDatabase, startPrivateRedis, type Database, type PrivateRedis } from "../src/stores.js";

const ORDERS = `import { FwB, request } from "fw-b";
import { csrfExempt, idempotent, renderJson } from "fw-b/decorators";
import { OrderLog } from "../lib/models.js";

/** Writes its row, then takes its time: the test kills the worker in between. */
async function place(mark: string) {
  await OrderLog.create({ mark, pid: process.pid });
  console.log(\`order \${mark} written in \${process.pid}\`);
  await new Promise((resolve) => setTimeout(resolve, 4000));
  return { placed: mark, pid: process.pid };
}

/** Orders from another program (no session, no CSRF token): with and without idempotency keys. */
@renderJson
@csrfExempt
export class Orders extends FwB {
  @request.post
  @idempotent
  keyed(mark: string) {
    return place(mark);
  }
  @request.post
  unkeyed(mark: string) {
    return place(mark);
  }
}
`;

const MIGRATION = `import type { Knex } from "fw-b";

/** The orders the idempotency test counts. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("order_log", (table) => {
    table.increments("id");
    table.string("mark", 80).notNullable();
    table.integer("pid").notNullable();
    table.timestamp("created_at");
    table.timestamp("updated_at");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("order_log");
}
`;

const MODEL = `
/** The idempotency test's orders. */
export const OrderLog = defineModel<BaseRow & { mark: string; pid: number }>("order_log");
`;

/**
 * The drivers the app's config names, linked into its node_modules from the workspace's install
 * (an app outside the repository loads its drivers from its own folder, as after npm install).
 */
function linkDrivers(root: string): void {
  const packages = fileURLToPath(new URL("../../../packages/", import.meta.url));
  const owners: Record<string, string> = { pg: "data", ioredis: "security", nodemailer: "services" };
  mkdirSync(join(root, "node_modules"), { recursive: true });
  for (const [name, owner] of Object.entries(owners)) {
    const found = dirname(createRequire(join(packages, owner, "package.json")).resolve(`${name}/package.json`));
    symlinkSync(found, join(root, "node_modules", name), "dir");
  }
}

/** curl's answer: the last status it got, and what it said about retrying. */
interface CurlRun {
  readonly status: number;
  readonly body: string;
  readonly log: string;
}

/** Runs curl to the end (it retries by itself as browsers and HTTP libraries do). */
// Options for each URL of a curl run (curl starts afresh after --next).
const EACH = ["-sS", "-k", "-v", "--max-time", "60", "-o", "-", "-w", "\\n%{http_code}"];

function curl(args: readonly string[]): Promise<CurlRun> {
  return new Promise((resolve, reject) => {
    const child = spawn("curl", [...EACH, ...args]);
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("error", (error) => reject(new Error(`curl could not start (apt-get install -y curl): ${error.message}`)));
    child.on("close", () => {
      const lines = out.trimEnd().split("\n");
      const status = Number(lines.pop());
      resolve({ status, body: lines.join("\n"), log: err });
    });
  });
}

describe("a POST whose worker is killed, sent again by the client through HAProxy", () => {
  const dir = mkdtempSync(join(tmpdir(), "scale-out-idem-"));
  let redis: PrivateRedis;
  let db: Database;
  let root: string;
  let env: Record<string, string>;
  const nodes: AppNode[] = [];
  let balancer: Balancer;
  let smtp: SmtpServer | undefined;
  let marks = 0;

  before(async () => {
    redis = await startPrivateRedis(dir);
    db = await createDatabase(`scaleout_idem_${process.pid}`);
    env = productionEnv(
      { dbUrl: db.url, redisUrl: redis.url, mailUrl: (smtp = await startSmtp()).url },
      `i${process.pid}`,
    );
    root = scaffoldApp(FW_B, dir);
    writeFileSync(join(root, "views", "orders.ts"), ORDERS);
    writeFileSync(join(root, "migrations", "20990102000000_order_log.ts"), MIGRATION);
    appendFileSync(join(root, "lib", "models.ts"), MODEL);
    linkDrivers(root);
    runCommand(FW_B, root, [FW_B.commands.build]);
    runCommand(FW_B, root, [FW_B.commands.migrate], env);
    nodes.push(...(await startNodes([startNode(FW_B, root, "n1", env), startNode(FW_B, root, "n2", env)])));
    balancer = await startBalancer(dir, root, FW_B, nodes);
    await balancer.waitUp(2);
  });

  after(async () => {
    await balancer?.stop();
    await smtp?.close();
    await Promise.all(nodes.map((node) => node.proc.stop("SIGKILL")));
    await redis?.stop();
    db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  function rows(mark: string): number {
    const result = spawnSync("psql", [db.url, "-tAc", `select count(*) from order_log where mark = '${mark}'`], {
      encoding: "utf8",
    });
    if (result.status !== 0) assert.fail(`psql failed: ${result.stderr}`);
    return Number(result.stdout.trim());
  }

  /**
   * Sends the POST with curl (`args` choose the protocol and connection), kills the worker that
   * wrote the row, and returns curl's outcome and the rows written.
   */
  async function killAfterWrite(route: "keyed" | "unkeyed", http: "h2" | "h1-reused", key?: string) {
    const mark = `${route}-${http}-${++marks}-${process.pid}`;
    // Both nodes in the pool (a worker killed by an earlier case has been replaced).
    await balancer.waitUp(2);
    const url = `${balancer.httpsUrl}/orders/${route}/${mark}`;
    const post = ["-X", "POST", "-H", "Content-Type: application/json", "--data", "{}", url];
    const headers = key ? ["-H", `Idempotency-Key: ${key}`] : [];
    const args =
      http === "h2"
        ? ["--http2", ...headers, ...post]
        : // A GET first, so that the POST goes out on a reused keep-alive connection.
          ["--http1.1", `${balancer.httpsUrl}/healthz`, "--next", ...EACH, "--http1.1", ...headers, ...post];
    const running = curl(args);
    const written = new RegExp(`order ${mark} written in (\\d+)`);
    const line = await Promise.race([
      ...nodes.map((node) => node.proc.waitFor(written, `the row of ${mark}`)),
      running.then((run) =>
        assert.fail(`curl ended before the row was written: ${run.status} ${run.body}\n${run.log}`),
      ),
    ]);
    const pid = Number(line.match(written)![1]);
    process.kill(pid, "SIGKILL");
    const answer = await running;
    // Any second run has written its row by the time curl has its answer.
    const runs = nodes
      .map((node) => (node.proc.output().match(new RegExp(`order ${mark} written`, "g")) ?? []).length)
      .reduce((a, b) => a + b, 0);
    return { answer, rows: rows(mark), runs };
  }

  for (const http of ["h2", "h1-reused"] as const) {
    test(`${http}: without a key, curl's retry runs the POST a second time (the harm the keys prevent)`, async () => {
      const { answer, rows: written } = await killAfterWrite("unkeyed", http);
      assert.equal(
        written,
        2,
        `curl: ${answer.status} ${answer.body}\n${answer.log.slice(-1500)}\nHAProxy: ${balancer.proc.output().slice(-1500)}`,
      );
    });

    test(`${http}: with an Idempotency-Key, curl's retry gets 409 and the order has exactly one row`, async () => {
      const key = crypto.randomUUID();
      const { answer, rows: written, runs } = await killAfterWrite("keyed", http, key);
      assert.equal(
        written,
        1,
        `curl: ${answer.status} ${answer.body}\n${answer.log.slice(-1500)}\nHAProxy: ${balancer.proc.output().slice(-1500)}`,
      );
      assert.equal(runs, 1);
      assert.equal(answer.status, 409, `${answer.body}\n${answer.log.slice(-1500)}`);
      assert.match(answer.body, /has not answered yet/);
    });
  }
});

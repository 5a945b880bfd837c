// A PostgreSQL restart (`pg_ctl restart -m fast`, a private cluster of this test's own) under load
// on one `start --workers 2` node, for both frameworks: `GET /ops/touch` (a Redis read and a
// query) keeps answering 200. Reads whose pooled connection the restart dropped run again on a
// fresh one, and queries sent while the server is down wait for it (within the acquire timeout).
// The figures are printed as diagnostics; docs/deployment.md gives the measured ones.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import autocannon from "autocannon";
import { FW_A, FW_B, prepareApp, productionEnv } from "../src/apps.js";
import { startSmtp, type SmtpServer } from "@fwkit/test-servers";
import { startNode, type AppNode } from "../src/cluster.js";
import { startPrivatePostgres, startPrivateRedis, type PrivatePostgres, type PrivateRedis } from "../src/stores.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const framework of [FW_B, FW_A]) {
  describe(`${framework.name}: PostgreSQL restarted under load`, () => {
    const dir = mkdtempSync(join(tmpdir(), `pg-restart-${framework.name}-`));
    let redis: PrivateRedis | undefined;
    let postgres: PrivatePostgres | undefined;
    let node: AppNode | undefined;
    let smtp: SmtpServer | undefined;

    before(async () => {
      // The private cluster runs as the postgres user, who must reach its folder.
      chmodSync(dir, 0o755);
      redis = await startPrivateRedis(dir);
      postgres = await startPrivatePostgres(join(dir, "pg"));
      execFileSync("psql", [
        "-h",
        "127.0.0.1",
        "-p",
        new URL(postgres.url).port,
        "-U",
        "postgres",
        "-c",
        "CREATE DATABASE restarted",
      ]);
      const env = productionEnv(
        {
          dbUrl: postgres.url.replace(/\/postgres$/, "/restarted"),
          redisUrl: redis.url,
          mailUrl: (smtp = await startSmtp()).url,
        },
        `pgr${process.pid}`,
      );
      const root = prepareApp(framework, dir, env);
      node = await startNode(framework, root, `${framework.name}-pg`, env);
    });

    after(async () => {
      await node?.proc.stop("SIGKILL");
      await smtp?.close();
      await postgres?.close();
      await redis?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    test("no request fails while the database restarts", async (t) => {
      const url = `${node!.url}/ops/touch${framework === FW_A ? "/" : ""}`;
      assert.equal((await fetch(url)).status, 200);
      const load = autocannon({ url, connections: 20, duration: 10, timeout: 30 });
      await sleep(3000);
      const started = Date.now();
      await postgres!.restart();
      const restartMs = Date.now() - started;
      const result = await load;
      const statuses = Object.entries(
        (result as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {},
      ).map(([code, { count }]) => `${code}: ${count}`);
      const figure = `${framework.name}: ${result.requests.total} requests, statuses ${statuses.join(", ")}, ${result.errors} connection errors, ${result.timeouts} timeouts; pg_ctl restart took ${restartMs} ms`;
      t.diagnostic(figure);
      console.log(figure);
      const retried = (node!.proc.output().match(/database connection lost/g) ?? []).length;
      t.diagnostic(`${retried} warn line(s) about reads run again`);
      assert.equal(result.non2xx, 0, `${figure}\n${node!.proc.output().slice(-3000)}`);
      assert.equal(result.errors, 0, figure);
      assert.ok(result.requests.total > 0);
    });
  });
}

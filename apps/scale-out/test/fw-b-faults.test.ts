// Production under faults, the fast subset: a scaffolded fw-b app (contrib auth on, PostgreSQL,
// Redis) as one `start --workers 2` node, requests straight at it. A refused start exits in every
// worker mode; the primary killed during slow requests lets them finish; a release with a
// migration and a worker crash in the middle gives no 500, and a rollback switches back.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { cliArgs, FW_B, productionEnv, runCommand, scaffoldApp, writeNextRelease } from "../src/apps.js";
import { startSmtp, type SmtpServer } from "@fwkit/test-servers";
import { startNode, type AppNode } from "../src/cluster.js";
import { eventually, freePort, launch } from "../src/processes.js";
import { createDatabase, startPrivateRedis, type Database, type PrivateRedis } from "../src/stores.js";
import { loadLoop } from "../src/load-loop.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("fw-b under faults: refused starts, a killed primary, releases", () => {
  const dir = mkdtempSync(join(tmpdir(), "scale-out-faults-"));
  let redis: PrivateRedis;
  let db: Database;
  let root: string;
  let env: Record<string, string>;
  let node: AppNode | undefined;
  let smtp: SmtpServer | undefined;
  const releases: string[] = [];

  before(async () => {
    redis = await startPrivateRedis(dir);
    db = await createDatabase(`scaleout_faults_${process.pid}`);
    env = productionEnv(
      { dbUrl: db.url, redisUrl: redis.url, mailUrl: (smtp = await startSmtp()).url },
      `f${process.pid}`,
    );
    root = scaffoldApp(FW_B, dir);
  });

  after(async () => {
    await node?.proc.stop("SIGKILL");
    await smtp?.close();
    await redis?.stop();
    db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const workers of ["1", "2"]) {
    test(`start --workers ${workers} on a database without the contrib tables prints E_CONTRIB_NOT_MIGRATED and exits 1`, async () => {
      const proc = launch(
        process.execPath,
        cliArgs(FW_B, [
          "start",
          "--workers",
          workers,
          "--port",
          String(await freePort()),
          "--host",
          "127.0.0.1",
          "--root",
          root,
        ]),
        {
          cwd: root,
          env: { ...process.env, NODE_OPTIONS: "", ...env },
        },
      );
      const exited = await Promise.race([proc.exited, sleep(120_000).then(() => undefined)]);
      if (!exited) await proc.stop("SIGKILL");
      assert.equal(
        exited?.code,
        1,
        `the refused start exited: ${JSON.stringify(exited)}\n${proc.output().slice(-2000)}`,
      );
      assert.match(proc.output(), /E_CONTRIB_NOT_MIGRATED/);
    });
  }

  test("release builds into releases/<id>, migrates, then points current at it; start serves current", async () => {
    const output = runCommand(FW_B, root, [FW_B.commands.release], env);
    const id = /current -> releases\/(\d{14}(?:-\d+)?)/.exec(output)?.[1];
    assert.ok(id, output);
    assert.ok(output.indexOf("2. Migrations") < output.indexOf("3. current"), "the migrations run before the switch");
    releases.push(id);
    node = await startNode(FW_B, root, "f1", env);
    const res = await fetch(`${node.url}/ops/touch`);
    assert.equal(res.status, 200, await res.clone().text());
    assert.deepEqual(await res.json(), { products: 2 });
  });

  test("kill -KILL of the primary during slow requests: every request finishes with 200", async () => {
    const started = node!;
    const slow = [1, 2, 3, 4].map(() =>
      fetch(`${started.url}/ops/slow/3000`, {
        headers: { connection: "close" },
        signal: AbortSignal.timeout(30_000),
      }).then(
        (res) => res.status,
        (error: Error) => String(error.cause ?? error),
      ),
    );
    // The four requests are in the app's workers before the kill, however long a busy machine takes.
    await eventually("the four slow requests to reach the app", async () =>
      (started.proc.output().match(/slow request started in \d+/g) ?? []).length >= 4 ? true : undefined,
    );
    started.proc.child.kill("SIGKILL");
    assert.deepEqual(await Promise.all(slow), [200, 200, 200, 200]);
    await eventually(
      "the node's port to be free",
      async () =>
        await fetch(`${started.url}/healthz`).then(
          () => undefined,
          () => true,
        ),
      30_000,
    );
    await started.restart();
  });

  test("a release with a migration, a worker crashing while it runs, then SIGHUP: no 500, the new code serves; rollback switches back", async () => {
    const current = node!;
    writeNextRelease(FW_B, root, 6);
    const load = loadLoop(`${current.url}/ops/touch`, 4);
    try {
      const release = launch(process.execPath, cliArgs(FW_B, [FW_B.commands.release, "--root", root]), {
        cwd: root,
        env: { ...process.env, NODE_OPTIONS: "", ...env },
      });
      await release.waitFor(/2\. Migrations of release/, "the release's migration step");
      // A crash while the migration runs: its replacement starts before current switches.
      const { pid } = (await (
        await fetch(`${current.url}/ops/whoami`, { headers: { connection: "close" } })
      ).json()) as { pid: number };
      process.kill(pid, "SIGKILL");
      await current.proc.waitFor(/replaced the one that died/, "the crashed worker's replacement");
      assert.doesNotMatch(release.output(), /3\. current/, "the replacement started before the switch");
      assert.equal((await release.exited).code, 0, release.output());
      const id = /current -> releases\/(\d{14}(?:-\d+)?)/.exec(release.output())![1]!;
      releases.push(id);
      current.proc.child.kill("SIGHUP");
      await current.proc.waitFor(/rolling restart done/, "the rolling restart into the new release");
      const fresh = (await (
        await fetch(`${current.url}/ops/touch`, { headers: { connection: "close" } })
      ).json()) as Record<string, unknown>;
      assert.deepEqual(fresh, { products: 2, withSku: 0 }, "the new release serves");

      const back = runCommand(FW_B, root, [FW_B.commands.releaseRollback], env);
      assert.match(back, new RegExp(`current -> releases/${releases[0]} \\(was ${id}\\)`));
      current.proc.child.kill("SIGHUP");
      await eventually(
        "the second rolling restart",
        async () => ((current.proc.output().match(/rolling restart done/g) ?? []).length >= 2 ? true : undefined),
        120_000,
      );
      const old = (await (
        await fetch(`${current.url}/ops/touch`, { headers: { connection: "close" } })
      ).json()) as Record<string, unknown>;
      assert.deepEqual(old, { products: 2 }, "the release before serves again");
    } finally {
      const counts = await load.stop();
      console.log(`requests during the release, the crash and the rollback: ${JSON.stringify(counts)}`);
      assert.equal(counts["500"] ?? 0, 0, `no 500: ${JSON.stringify(counts)}`);
      assert.equal(counts["hung"] ?? 0, 0, `no request hung: ${JSON.stringify(counts)}`);
      assert.ok((counts["200"] ?? 0) > 0);
    }
  });
});

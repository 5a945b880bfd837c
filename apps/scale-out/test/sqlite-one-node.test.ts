// A one-node production on SQLite, the default, as the scaffold's printed steps and
// docs/deployment.md give it: init, build, migrate (from the sources, in the app folder), start
// (from build/). `start` must open the database `migrate` migrated, the app folder's data/app.db,
// not an empty build/data/app.db: the home page reads its rows, and readiness finds the migrations
// applied by the sources (`.ts`) when it runs the build (`.js`). Both frameworks.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { cliArgs, FW_A, FW_B, runCommand, type Framework } from "../src/apps.js";
import { freePort, launch, type Proc } from "../src/processes.js";

const PRODUCTION = {
  APP_ENV: "production",
  SECRET_KEY: crypto.randomUUID(),
  BASE_URL: "http://127.0.0.1",
  LOG_LEVEL: "warn",
};

for (const [framework, row] of [
  [FW_A, "Rows come from SQLite (data/app.db)"],
  [FW_B, "Green tea"],
] as const satisfies ReadonlyArray<readonly [Framework, string]>) {
  describe(`${framework.name}: one node on SQLite, built, migrated and started`, () => {
    const dir = mkdtempSync(join(tmpdir(), `sqlite-node-${framework.name}-`));
    let proc: Proc | undefined;
    after(async () => {
      await proc?.stop("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    });

    test("the home page reads the rows the migrate command wrote; nothing is pending", async () => {
      const root = join(dir, "app");
      const { mkdirSync } = await import("node:fs");
      mkdirSync(root);
      runCommand(framework, root, [framework.commands.init]);
      runCommand(framework, root, [framework.commands.build]);
      runCommand(framework, root, [framework.commands.migrate], PRODUCTION);
      assert.ok(existsSync(join(root, "data", "app.db")), "migrate wrote the app folder's database");
      const port = await freePort();
      proc = launch(
        process.execPath,
        cliArgs(framework, ["start", "--workers", "1", "--port", String(port), "--host", "127.0.0.1", "--root", root]),
        {
          cwd: root,
          env: { ...process.env, NODE_OPTIONS: "", ...PRODUCTION },
        },
      );
      await proc.waitFor(/Serving on http:\/\/127\.0\.0\.1:\d+/, "the app serving");
      const home = await fetch(`http://127.0.0.1:${port}/`);
      const page = await home.text();
      assert.equal(home.status, 200, `${page.slice(0, 400)}\n${proc.output().slice(-2000)}`);
      assert.ok(page.includes(row), `the page lists the migrated rows:\n${page.slice(0, 2000)}`);
      assert.equal(existsSync(join(root, "build", "data", "app.db")), false, "no second, empty database in the build");
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      const body = (await ready.json()) as { status: string; checks: Record<string, string> };
      assert.equal(ready.status, 200, JSON.stringify(body));
      assert.equal(body.checks["migrations"], "ok", "the build's .js migrations are the ones the sources applied");
      assert.equal(body.checks["database"], "ok");
      const stopped = await proc.stop("SIGTERM");
      assert.equal(stopped.code, 0, proc.output());
    });
  });
}

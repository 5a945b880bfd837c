// Releases under faults, on real processes (the fixture CLI: its `migrate` stands in for a
// framework's): a release interrupted during its migrations stops its migrate child, removes its
// build and says what was applied; a SIGKILLed one leaves a build that never served, which is no
// rollback target and goes at the next prune with the leftovers of dead processes; pruning never
// deletes the release running workers serve from, and /readyz fails once that folder is gone.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { pidAlive } from "../src/production/release-holders.js";
import { eventually, freePort, get, killAll, runFixture, type Running } from "./production-support.js";

const TEST_MS = 240_000;
after(killAll);

const fixture = fileURLToPath(new URL("./production-app/", import.meta.url));
const modules = fileURLToPath(new URL("../node_modules/", import.meta.url));
const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the fixture app in a temporary folder (its packages reached through a node_modules link). */
function appCopy(): { root: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), "fw-release-faults-"));
  dirs.push(dir);
  const root = join(dir, "app");
  mkdirSync(root);
  for (const entry of ["app.ts", "lib", "views"]) cpSync(join(fixture, entry), join(root, entry), { recursive: true });
  symlinkSync(modules, join(root, "node_modules"));
  return {
    root,
    env: { FIXTURE_MIGRATIONS: join(dir, "applied-migrations"), SECRET_KEY: randomBytes(32).toString("base64url") },
  };
}

/** Runs a fixture command in `root` to its end; fails with its output unless it exits with `code`. */
async function command(root: string, args: string[], env: Record<string, string>, code = 0): Promise<string> {
  const run = runFixture([...args, "--root", root], env, root);
  const exit = await run.exit(`fixture ${args.join(" ")}`, 120_000);
  assert.equal(exit.code, code, `fixture ${args.join(" ")}: ${run.output()}`);
  return run.output();
}

const releasedId = (output: string) => {
  const id = /current -> releases\/(\d{14}(?:-\d+)?)/.exec(output)?.[1];
  assert.ok(id, output);
  return id;
};

/** The pid of the migrate child a running release printed. */
async function migratePid(release: Running): Promise<number> {
  return Number(/migrating in (\d+)/.exec(await release.waitFor(/migrating in \d+/, 120_000))![1]);
}

/** A pid certainly dead: a process that ran and exited. */
const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid!;

describe("a release interrupted during its migrations", () => {
  test("SIGTERM stops the migrate child, removes the build and says what is applied; a SIGKILLed build never becomes a rollback target and is pruned with dead leftovers", {
    timeout: TEST_MS,
  }, async () => {
    const { root, env } = appCopy();
    const first = releasedId(await command(root, ["release"], env));
    const slow = { ...env, FIXTURE_MIGRATION: "002_next", FIXTURE_MIGRATE_MS: "60000" };

    // SIGTERM (systemd stopping the deploy, Ctrl-C): the migrate child stops with it.
    const terminated = runFixture(["release", "--root", root], slow, root);
    const child = await migratePid(terminated);
    terminated.child.kill("SIGTERM");
    assert.equal((await terminated.exit("the interrupted release to exit")).code, 1, terminated.output());
    assert.match(terminated.output(), /were interrupted \(SIGTERM; the migrate command was stopped\)/);
    assert.match(terminated.output(), /not applied: 002_next \(fixture migrations\)/);
    assert.match(terminated.output(), new RegExp(`current still points to ${first}`));
    await eventually("the migrate child to stop", async () => (pidAlive(child) ? undefined : true));
    assert.deepEqual(
      readdirSync(join(root, "releases")).filter((name) => /^\d{14}/.test(name)),
      [first],
      "the interrupted build is removed",
    );

    // SIGKILL while the migrate child is still starting: it stops before migrating anything.
    const early = runFixture(
      ["release", "--root", root],
      { ...slow, FIXTURE_MIGRATE_MS: "0", FIXTURE_MIGRATE_QUIET: "1" },
      root,
    );
    await early.waitFor(/2\. Migrations of release/, 120_000);
    const starting = Number(
      spawnSync("pgrep", ["-P", String(early.child.pid)], { encoding: "utf8" })
        .stdout.trim()
        .split("\n")[0],
    );
    assert.ok(starting > 0, "the migrate child is running");
    early.child.kill("SIGKILL");
    await early.exit("the killed release");
    await eventually("the starting migrate child to stop", async () => (pidAlive(starting) ? undefined : true));
    assert.doesNotMatch(
      readFileSync(env.FIXTURE_MIGRATIONS!, "utf8"),
      /002_next/,
      "the child of a killed release applied nothing",
    );

    // SIGKILL: nothing runs in the release command any more; its child stops on its own.
    const killed = runFixture(["release", "--root", root], slow, root);
    const orphan = await migratePid(killed);
    const built = /Built release (\d{14}(?:-\d+)?)/.exec(killed.output())![1]!;
    killed.child.kill("SIGKILL");
    await killed.exit("the killed release");
    await eventually("the killed release's migrate child to stop", async () => (pidAlive(orphan) ? undefined : true));
    assert.ok(existsSync(join(root, "releases", built, "app.js")), "a SIGKILLed release leaves its build");
    const rollback = runFixture(["release:rollback", "--to", built, "--root", root], env, root);
    assert.equal((await rollback.exit("the refused rollback")).code, 1);
    assert.match(rollback.output(), new RegExp(`Release ${built} never served`));

    // Leftovers of dead processes: a build killed while it wrote, a switch killed before its rename.
    const leftover = `${built}.tmp-${deadPid()}`;
    mkdirSync(join(root, "releases", leftover, "views"), { recursive: true });
    symlinkSync("releases/nothing", join(root, `current.tmp-${deadPid()}`));

    const next = await command(root, ["release"], { ...env, FIXTURE_MIGRATION: "002_next" });
    assert.match(next, /Migrations applied: 1 \(002_next\)/, "the release says what it applied");
    const second = releasedId(next);
    assert.match(next, new RegExp(`removed old release\\(s\\): .*${built}`), "the build that never served goes");
    assert.match(next, new RegExp(`removed leftovers of interrupted commands: .*${leftover.replace(/\./g, "\\.")}`));
    assert.deepEqual(
      readdirSync(root).filter((name) => name.startsWith("current")),
      ["current"],
    );
    const back = await command(root, ["release:rollback"], env);
    assert.match(
      back,
      new RegExp(`current -> releases/${first} \\(was ${second}\\)`),
      "back to the release that served",
    );
    const again = await command(root, ["release"], { ...env, FIXTURE_MIGRATION: "002_next" });
    assert.match(again, /Migrations applied: none \(no migration was pending\)/);
  });
});

describe("pruning while workers serve", () => {
  test("a release running workers serve from is kept whatever --keep says; /readyz answers 503 once its folder is gone", {
    timeout: TEST_MS,
  }, async () => {
    const { root, env } = appCopy();
    const first = releasedId(await command(root, ["release"], env));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const app = runFixture(
      ["start", "--workers", "2", "--port", String(port), "--host", "127.0.0.1", "--root", root],
      env,
      root,
    );
    await app.waitFor(/with 2 workers/);
    assert.equal((await get(`${base}/readyz`)).status, 200);

    const next = await command(root, ["release", "--keep", "1"], env);
    const second = releasedId(next);
    assert.match(next, new RegExp(`kept ${first}: running processes serve from it \\(pid \\d+, \\d+\\)`), next);
    assert.ok(existsSync(join(root, "releases", first, "app.js")), "the serving release is still there");
    assert.equal((await get(`${base}/pid`)).status, 200);
    assert.equal((await get(`${base}/readyz`)).status, 200);

    // Deleted by hand (or by an older release command): the node leaves the balancer.
    rmSync(join(root, "releases", first), { recursive: true, force: true });
    const gone = await get(`${base}/readyz`);
    assert.equal(gone.status, 503, gone.text);
    assert.match(gone.text, /"files":"down"/);

    // SIGHUP: the workers move to the current release, which readiness finds again.
    app.child.kill("SIGHUP");
    await app.waitFor(/rolling restart done/);
    assert.equal((await get(`${base}/readyz`)).status, 200);
    const third = await command(root, ["release", "--keep", "1"], env);
    assert.match(third, new RegExp(`kept ${second}: running processes serve from it`), third);
    app.child.kill("SIGTERM");
    assert.equal((await app.exit("start to exit after SIGTERM")).code, 0, app.recent());
    const fourth = await command(root, ["release", "--keep", "1"], env);
    assert.match(fourth, new RegExp(`removed old release\\(s\\): .*${second}`), "no process serves from it any more");
  });
});

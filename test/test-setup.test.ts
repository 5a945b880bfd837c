// `npm test` on a fresh machine failed because only .ci/run installed Chromium and
// started the servers. The test command's own set-up (scripts/test-setup.mjs) decides what is
// missing and what to do about it: install as root with apt-get, else stop with the exact command.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
// @ts-expect-error: a plain JavaScript script of the repository, without type declarations
import { currentPlan, isPresent, planSetup, REQUIREMENTS } from "../scripts/test-setup.mjs";

interface Requirement {
  name: string;
  apt: string;
  neededBy: string;
  server?: boolean;
  files?: string[];
  commands?: string[];
}
type Plan =
  | { action: "none" }
  | { action: "install"; packages: string[]; command: string }
  | { action: "fail"; message: string };
const plan = planSetup as (input: {
  missing: Requirement[];
  isRoot: boolean;
  hasApt: boolean;
  hasSudo: boolean;
  noServers?: boolean;
}) => Plan;
const requirements = REQUIREMENTS as Requirement[];
const named = (name: string) => requirements.find((requirement) => requirement.name === name)!;
const script = fileURLToPath(new URL("../scripts/test-setup.mjs", import.meta.url));

describe("the test command's set-up", () => {
  test("one list names every program the tests need, with its Debian package and what needs it", () => {
    for (const name of ["Chromium", "PostgreSQL", "MariaDB", "Redis", "HAProxy", "nginx"])
      assert.ok(named(name), `${name} is in the list`);
    for (const requirement of requirements) {
      assert.ok(requirement.apt && requirement.neededBy, requirement.name);
      assert.ok(
        (requirement.files?.length ?? 0) + (requirement.commands?.length ?? 0) > 0,
        `${requirement.name} says how to find it`,
      );
    }
    assert.equal(
      new Set(requirements.map((requirement) => requirement.apt)).size,
      requirements.length,
      "one line per package",
    );
  });

  test("nothing missing: nothing to do", () => {
    assert.deepEqual(plan({ missing: [], isRoot: false, hasApt: true, hasSudo: true }), { action: "none" });
  });

  test("root with apt-get: install the missing packages (update first)", () => {
    const result = plan({ missing: [named("Chromium"), named("HAProxy")], isRoot: true, hasApt: true, hasSudo: false });
    assert.equal(result.action, "install");
    assert.ok(result.action === "install");
    assert.deepEqual(result.packages, ["chromium", "haproxy"]);
    assert.equal(
      result.command,
      "apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium haproxy",
    );
  });

  test("not root: stop early, naming what is missing, what needs it, and the exact command", () => {
    const withSudo = plan({ missing: [named("Chromium")], isRoot: false, hasApt: true, hasSudo: true });
    assert.ok(withSudo.action === "fail");
    assert.match(withSudo.message, /Chromium \(Debian package chromium\): the browser tests/);
    assert.ok(
      withSudo.message.includes(
        "sudo sh -c 'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium'",
      ),
      withSudo.message,
    );
    const noSudo = plan({ missing: [named("Chromium")], isRoot: false, hasApt: true, hasSudo: false });
    assert.ok(noSudo.action === "fail");
    assert.ok(
      noSudo.message.includes(
        "Run as root:\n  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium",
      ),
      noSudo.message,
    );
    const noApt = plan({ missing: [named("nginx")], isRoot: true, hasApt: false, hasSudo: false });
    assert.ok(noApt.action === "fail");
    assert.match(noApt.message, /your system's package manager \(Debian names: nginx\)/);
  });

  test("FW_TEST_NO_SERVERS=1 needs no database server; a missing one mentions that opt-out", () => {
    assert.deepEqual(
      plan({
        missing: [named("Redis"), named("PostgreSQL")],
        isRoot: false,
        hasApt: true,
        hasSudo: false,
        noServers: true,
      }),
      { action: "none" },
    );
    const result = plan({ missing: [named("Redis")], isRoot: false, hasApt: true, hasSudo: false });
    assert.ok(result.action === "fail");
    assert.match(result.message, /FW_TEST_NO_SERVERS=1/);
  });

  test("a program is found on PATH or by its file", () => {
    const dir = mkdtempSync(join(tmpdir(), "test-setup-"));
    try {
      const program = join(dir, "fw-fake-program");
      writeFileSync(program, "#!/bin/sh\n");
      chmodSync(program, 0o755);
      const fake = { name: "Fake", apt: "fake", neededBy: "this test", commands: ["fw-fake-program"] };
      assert.equal(isPresent(fake, { PATH: dir }), true);
      assert.equal(isPresent(fake, { PATH: "/nonexistent" }), false);
      assert.equal(isPresent({ ...fake, commands: [], files: [program] }, { PATH: "" }), true);
      // CHROMIUM_PATH replaces /usr/bin/chromium, as in the browser tests.
      assert.equal(isPresent(named("Chromium"), { PATH: "", CHROMIUM_PATH: program }), true);
      assert.equal(isPresent(named("Chromium"), { PATH: "", CHROMIUM_PATH: join(dir, "absent") }), false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the script: as root it would install what is missing; unprivileged it stops with the command; silent when all is there", () => {
    const env = { ...process.env, CHROMIUM_PATH: "/nonexistent/chromium" };
    const unprivileged = (args: string[]) =>
      process.getuid?.() === 0
        ? spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, ...args], {
            encoding: "utf8",
            env,
          })
        : spawnSync(process.execPath, args, { encoding: "utf8", env });
    const refused = unprivileged([script, "--check"]);
    assert.equal(refused.status, 1, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /Chromium \(Debian package chromium\)/);
    assert.match(refused.stderr, /apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y .*\bchromium\b/);
    if (process.getuid?.() === 0) {
      const root = spawnSync(process.execPath, [script, "--check"], { encoding: "utf8", env });
      assert.equal(root.status, 0, root.stderr);
      assert.match(root.stdout, /would install: .*\bchromium\b/);
    }
    const present = { ...process.env, CHROMIUM_PATH: process.execPath };
    if ((currentPlan as (env: NodeJS.ProcessEnv) => Plan)(present).action === "none") {
      const quiet = spawnSync(process.execPath, [script, "--check"], { encoding: "utf8", env: present });
      assert.equal(quiet.status, 0);
      assert.equal(quiet.stdout + quiet.stderr, "", "nothing printed when nothing is missing");
    }
  });
});

// On a fresh Debian machine (stock my.cnf, `user = mysql` commented out) mariadbd
// refuses to run as root, and the set-up waited 30 s and went on. It now starts the server as the
// mysql user and fails with the server's own message. A private MariaDB (its own data folder and
// port) is started here exactly as scripts/ensure-servers.sh starts the shared one, which this
// test never touches.
describe("MariaDB as the set-up starts it", () => {
  const root = process.getuid?.() === 0;
  const installDb = spawnSync("sh", ["-c", "command -v mariadb-install-db"], { encoding: "utf8" }).stdout.trim();
  const skip = !root
    ? "needs root (mariadbd switches to the mysql user)"
    : !existsSync("/usr/sbin/mariadbd") || !installDb
      ? "needs mariadb-server"
      : false;
  const lib = fileURLToPath(new URL("../scripts/servers-lib.sh", import.meta.url));

  test("scripts/ensure-servers.sh starts the shared server through the same function, as the mysql user", () => {
    const ensure = readFileSync(fileURLToPath(new URL("../scripts/ensure-servers.sh", import.meta.url)), "utf8");
    assert.match(ensure, /^\. "\$\(dirname "\$0"\)\/servers-lib\.sh"$/m);
    assert.match(ensure, /^\s*mariadb_start \S+ mysql$/m);
    assert.match(ensure, /wait_for 3306 MariaDB \S+ "\$MARIADB_PID" \|\| failed=1/);
    assert.match(ensure, /^exit "\$failed"$/m);
  });

  test("as root without --user it is refused and the set-up shows mariadbd's own message; with --user=mysql it answers", {
    skip,
    timeout: 120_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "fw-mariadb-"));
    chmodSync(dir, 0o755);
    const data = join(dir, "data");
    const log = join(dir, "mariadbd.log");
    // The server, once it runs as mysql, writes its socket and pid file in a folder of its own.
    const run = join(dir, "run");
    const pidFile = join(run, "mariadbd.pid");
    try {
      mkdirSync(data);
      mkdirSync(run);
      assert.equal(spawnSync("chown", ["mysql:mysql", data, run]).status, 0);
      const install = spawnSync(
        installDb,
        [
          "--no-defaults",
          "--user=mysql",
          `--datadir=${data}`,
          "--auth-root-authentication-method=normal",
          "--skip-test-db",
        ],
        { encoding: "utf8" },
      );
      assert.equal(install.status, 0, install.stdout + install.stderr);
      const port = await freePort();
      // --no-defaults: Debian's stock configuration, where `user = mysql` is commented out.
      const options = [
        "--no-defaults",
        `--datadir=${data}`,
        `--port=${port}`,
        "--bind-address=127.0.0.1",
        `--socket=${join(run, "mysqld.sock")}`,
        `--pid-file=${pidFile}`,
      ];
      const start = (user: string) =>
        spawnSync(
          "bash",
          [
            "-c",
            '. "$0"; mariadb_start "$1" "$2" "${@:3}"; wait_for "$FW_PORT" MariaDB "$1" "$MARIADB_PID"',
            lib,
            log,
            user,
            ...options,
          ],
          {
            encoding: "utf8",
            env: { ...process.env, FW_PORT: String(port) },
          },
        );
      const refused = start("");
      assert.equal(refused.status, 1, refused.stdout + refused.stderr);
      assert.match(refused.stderr, new RegExp(`MariaDB did not come up on port ${port}`));
      assert.match(refused.stderr, /to run mariadbd as root/, "the server's own reason is shown");

      const started = start("mysql");
      assert.equal(started.status, 0, started.stdout + started.stderr);
      const ping = spawnSync("mariadb-admin", ["--no-defaults", "-h", "127.0.0.1", `-P${port}`, "-uroot", "ping"], {
        encoding: "utf8",
      });
      assert.match(ping.stdout, /mysqld is alive/, ping.stdout + ping.stderr);
      const user = spawnSync("ps", ["-o", "user=", "-p", readFileSync(pidFile, "utf8").trim()], { encoding: "utf8" });
      assert.equal(user.stdout.trim(), "mysql");
    } finally {
      // Only the server this test started, by its own pid file.
      if (existsSync(pidFile)) {
        const pid = Number(readFileSync(pidFile, "utf8").trim());
        try {
          process.kill(pid, "SIGTERM");
          for (let i = 0; i < 200; i++) {
            process.kill(pid, 0);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        } catch {
          // gone
        }
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

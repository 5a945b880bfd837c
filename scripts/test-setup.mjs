// The set-up `npm test` does before anything else, so the README's two commands work on a fresh
// Debian machine with nothing run before them: install the system packages the tests need when one
// is missing (as root, with apt-get), else stop early with the exact command to run; then start the
// local servers (scripts/ensure-servers.sh). Silent when everything is present.
// Usage: node scripts/test-setup.mjs [--check]   (--check: report what is missing, change nothing)
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Every system package a test needs, in one list: add a line here when a test starts needing a
 * program (sqlmap: `{ name: "sqlmap", apt: "sqlmap", commands: ["sqlmap"], neededBy: "..." }`).
 * `commands` are looked up on PATH and in /usr/sbin and /usr/bin (all must be found); `files` are
 * checked as given (one is enough); `fileFromEnv` names a variable that, when set, replaces `files`. `server: true` marks the databases, which FW_TEST_NO_SERVERS=1 opts out of.
 */
export const REQUIREMENTS = [
  {
    name: "PostgreSQL",
    apt: "postgresql",
    commands: ["pg_ctlcluster", "psql"],
    server: true,
    neededBy: "data, security and services tests (127.0.0.1:5432)",
  },
  {
    name: "MariaDB",
    apt: "mariadb-server",
    files: ["/usr/sbin/mariadbd"],
    server: true,
    neededBy: "data, security and services tests (127.0.0.1:3306)",
  },
  {
    name: "Redis",
    apt: "redis-server",
    commands: ["redis-server"],
    server: true,
    neededBy: "session, cache and signal tests (127.0.0.1:6379)",
  },
  {
    name: "Chromium",
    apt: "chromium",
    files: ["/usr/bin/chromium"],
    fileFromEnv: "CHROMIUM_PATH",
    neededBy: "the browser tests (CHROMIUM_PATH overrides /usr/bin/chromium)",
  },
  { name: "HAProxy", apt: "haproxy", commands: ["haproxy"], neededBy: "the load-balancer configuration tests" },
  { name: "nginx", apt: "nginx", commands: ["nginx"], neededBy: "the reverse-proxy configuration tests" },
  {
    name: "curl",
    apt: "curl",
    commands: ["curl"],
    neededBy: "the idempotency-key test (a client that sends a POST again by itself, over HTTP/2 and HTTP/1.1)",
  },
  {
    name: "Prometheus",
    apt: "prometheus",
    commands: ["prometheus"],
    neededBy: "the cluster metrics test (a real Prometheus scrapes two nodes)",
  },
  {
    name: "Valgrind",
    apt: "valgrind",
    commands: ["valgrind", "callgrind_control"],
    neededBy: "the bench's instruction counts (`pnpm bench --instructions`, and its test)",
  },
];

const SEARCH = ["/usr/sbin", "/usr/bin", "/sbin", "/bin", "/usr/local/bin", "/usr/local/sbin"];

function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Whether a requirement is present on this machine. */
export function isPresent(requirement, env = process.env) {
  const files =
    requirement.fileFromEnv && env[requirement.fileFromEnv]
      ? [env[requirement.fileFromEnv]]
      : (requirement.files ?? []);
  if (files.some((file) => existsSync(file))) return true;
  const dirs = [...(env.PATH ?? "").split(delimiter).filter(Boolean), ...SEARCH];
  return (
    (requirement.commands ?? []).length > 0 &&
    requirement.commands.every((command) => dirs.some((dir) => executable(join(dir, command))))
  );
}

/**
 * What to do about the missing requirements (pure, so it is tested without a machine to break):
 * `{ action: "none" }`, `{ action: "install", packages, command }` (root with apt-get: do it), or
 * `{ action: "fail", message }` naming each missing program, what needs it, and the exact command.
 */
export function planSetup({ missing, isRoot, hasApt, hasSudo, noServers = false }) {
  const needed = missing.filter((requirement) => !(noServers && requirement.server));
  if (needed.length === 0) return { action: "none" };
  const packages = [...new Set(needed.map((requirement) => requirement.apt))];
  const install = `apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y ${packages.join(" ")}`;
  if (hasApt && isRoot) return { action: "install", packages, command: install };
  const list = needed
    .map((requirement) => `  - ${requirement.name} (Debian package ${requirement.apt}): ${requirement.neededBy}`)
    .join("\n");
  const how = !hasApt
    ? `Install them with your system's package manager (Debian names: ${packages.join(" ")}).`
    : hasSudo
      ? `Run:\n  sudo sh -c '${install}'`
      : `Run as root:\n  ${install}`;
  const optOut = needed.some((requirement) => requirement.server)
    ? "\nWithout the database servers, FW_TEST_NO_SERVERS=1 skips exactly the tests that need them."
    : "";
  return { action: "fail", message: `The tests need programs this machine lacks:\n${list}\n${how}${optOut}` };
}

/** Looks at this machine and returns the plan. */
export function currentPlan(env = process.env) {
  const onPath = (command) => spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore", env }).status === 0;
  return planSetup({
    missing: REQUIREMENTS.filter((requirement) => !isPresent(requirement, env)),
    isRoot: typeof process.getuid === "function" && process.getuid() === 0,
    hasApt: onPath("apt-get"),
    hasSudo: onPath("sudo"),
    noServers: env.FW_TEST_NO_SERVERS === "1",
  });
}

/** Carries out the set-up; returns false (having printed why) when the tests cannot run. */
export function runSetup({ check = false } = {}) {
  const plan = currentPlan();
  if (plan.action === "fail") {
    console.error(`\n${plan.message}\n`);
    return false;
  }
  if (plan.action === "install") {
    if (check) {
      console.log(`test set-up would install: ${plan.packages.join(" ")}`);
      return true;
    }
    console.log(
      `test set-up: installing ${plan.packages.join(" ")} (apt-get; its progress follows, a few minutes on a fresh machine)`,
    );
    // apt's own output goes straight to the terminal, so a long install shows its progress.
    const result = spawnSync("sh", ["-c", plan.command], { stdio: ["ignore", "inherit", "inherit"] });
    const still = REQUIREMENTS.filter(
      (requirement) => plan.packages.includes(requirement.apt) && !isPresent(requirement),
    );
    if (result.status !== 0 || still.length > 0) {
      console.error(
        `\ntest set-up: \`${plan.command}\` failed${still.length ? ` (${still.map((r) => r.name).join(", ")} still missing)` : ""} (see apt's output above).`,
      );
      return false;
    }
  }
  if (check) return true;
  // Starts PostgreSQL, MariaDB and Redis when they are not answering, and makes the `test` databases.
  const servers = spawnSync("bash", [fileURLToPath(new URL("./ensure-servers.sh", import.meta.url))], {
    stdio: "inherit",
  });
  if (servers.status !== 0) {
    console.error(
      "test set-up: a database server did not start (its own message is above); the tests that need it would all fail.",
    );
    return false;
  }
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exit(runSetup({ check: process.argv.includes("--check") }) ? 0 : 1);
}

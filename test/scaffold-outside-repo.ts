// A new app made outside the repository, as a user would: every command its README, its welcome
// page and its package.json name runs there with nothing installed, and its own `npm install`
// leaves the framework's installation (the workspace's node_modules) untouched: no file written,
// no native add-on rebuilt in place. Runs against the frameworks' built output (dist), like
// app-tests-and-route-types: `npm test` builds first. Heavy (npm install, servers): one app and
// one install per framework, one test file each (scaffold-outside-repo-fw-*.test.ts).
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { hasInstallStep } from "../packages/cli/src/scaffold-links.js";
import { localSqlitePrebuilds } from "../packages/test-servers/src/sqlite-prebuild.js";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");

/** A framework as the test drives it. */
export interface Framework {
  readonly name: "fw-a" | "fw-b";
  readonly init: string;
  readonly page: string;
  /** Passing count of the scaffold's example test. */
  readonly tests: number;
}

/** The two frameworks. */
export const FRAMEWORKS: Readonly<Record<Framework["name"], Framework>> = {
  "fw-a": { name: "fw-a", init: "gen:init", page: "templates/main/Index/index.html", tests: 3 },
  "fw-b": { name: "fw-b", init: ":init", page: "templates/main/Index/index.pug", tests: 4 },
};

function environment(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  // The app's `npm test` reports in TAP (read below) on every Node: Node 24 prints its spec
  // reporter ("ℹ pass 3") to a child whose output is not a terminal.
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: "--test-reporter=tap", FW_TS_LOADER: "", ...extra };
  delete env["NODE_TEST_CONTEXT"];
  if (!("APP_ENV" in extra)) delete env["APP_ENV"];
  return env;
}

// The tests' timeouts come from their work, with a budget per step sized for a 2-core machine
// under heavy load (a load average of 20 makes each step about ten times slower than on a quiet
// one), never from how long it takes on a quiet machine: one command of the app (a type-check, a
// build, its test suite: 5 to 20 s when quiet), a server's start, and the app's npm install.
const COMMAND_MS = 120_000;
const SERVE_MS = 180_000;
const INSTALL_MS = 780_000;
/** The commands the first test runs at most (checked there, so its timeout follows its work). */
const COMMANDS_AT_MOST = 16;

/** Runs `command` in `cwd`; `timeout` only ends a hang. */
function sh(command: string, cwd: string, extra: NodeJS.ProcessEnv = {}, timeout = 600_000) {
  const result = spawnSync("sh", ["-c", command], { cwd, encoding: "utf8", env: environment(extra), timeout });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Runs a serving command (`npm run dev`, `npm start`), waits for `/` to answer 200, stops it. */
async function serves(command: string, cwd: string, extra: NodeJS.ProcessEnv = {}): Promise<string> {
  const port = await freePort();
  const child = spawn("sh", ["-c", `exec ${command}`], {
    cwd,
    env: environment({ ...extra, PORT: String(port) }),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  try {
    const deadline = Date.now() + SERVE_MS;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`${command} exited (${child.exitCode}):\n${output}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/`);
        if (res.status === 200) return output;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`${command} did not answer on port ${port}:\n${output}`);
  } finally {
    // npm runs the server in a child of its own: stop the whole group.
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      // already gone
    }
    await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(undefined)));
  }
}

/** The commands a scaffold's README shows (indented `npx ...`/`npm ...` lines, comment removed). */
function readmeCommands(app: string): string[] {
  return readFileSync(join(app, "README.md"), "utf8")
    .split("\n")
    .map((line) => /^ {4}((?:npx|npm) [^#]+?)\s*(?:#.*)?$/.exec(line)?.[1])
    .filter((command): command is string => command !== undefined);
}

/** Every package folder of the app's node_modules (scoped ones too), by name. */
function installed(app: string): Map<string, string> {
  const found = new Map<string, string>();
  const modules = join(app, "node_modules");
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith(".")) continue;
    const names = entry.startsWith("@") ? readdirSync(join(modules, entry)).map((name) => `${entry}/${name}`) : [entry];
    for (const name of names) found.set(name, join(modules, name));
  }
  return found;
}

/** inode and mtime of every file under the given folders: what an install in place would change. */
function snapshot(dirs: readonly string[]): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (path: string) => {
    const stat = lstatSync(path);
    files.set(path, `${stat.ino}:${stat.mtimeMs}`);
    if (stat.isDirectory() && !path.endsWith(`${"/"}node_modules`))
      for (const entry of readdirSync(path)) walk(join(path, entry));
  };
  for (const dir of dirs) walk(dir);
  return files;
}

function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((path) => before.get(path) !== after.get(path)).map((path) => relative(repoRoot, path));
}

/** The tests of a new app of `framework` made in a temporary folder outside the repository. */
export function describeAppOutsideRepo(framework: Framework): void {
  const work = mkdtempSync(join(tmpdir(), "outside-repo-"));
  // The workspace's compiled better-sqlite3, offered to the app's install as a local prebuilt binary
  // (prebuild-install reads npm_config_better_sqlite3_local_prebuilds): this machine cannot download
  // one, and compiling it takes minutes. Without it the install compiles, which is as correct.
  const prebuilds = join(work, "prebuilds");
  describe(`a new ${framework.name} app outside the repository`, () => {
    before(() => {
      localSqlitePrebuilds(prebuilds);
    });
    after(() => rmSync(work, { recursive: true, force: true }));

    const app = join(work, `my-${framework.name}-app`);
    const frameworkDir = join(repoRoot, "packages", framework.name);
    const bin = join(frameworkDir, "bin", `${framework.name}.js`);

    before(() => {
      assert.ok(
        existsSync(join(frameworkDir, "dist", "cli", "main.js")),
        `build ${framework.name} first (npm test does): its dist/ is missing`,
      );
      mkdirSync(app, { recursive: true });
      const init = spawnSync(process.execPath, [bin, framework.init], {
        cwd: app,
        encoding: "utf8",
        env: environment(),
      });
      assert.equal(init.status, 0, init.stderr);
    });

    test("the scaffold links nothing with an install step: npm would run it inside the repository", () => {
      const links = [...installed(app)].filter(([, path]) => lstatSync(path).isSymbolicLink());
      assert.ok(
        links.some(([name]) => name === framework.name) && links.some(([name]) => name === "tsx"),
        links.map(([name]) => name).join(", "),
      );
      for (const [name, path] of links)
        assert.equal(
          hasInstallStep(realpathSync(path)),
          false,
          `node_modules/${name} links to a package with an install step`,
        );
      for (const native of ["better-sqlite3", "bcrypt", "esbuild"])
        assert.ok(!existsSync(join(app, "node_modules", native)), `${native} is left for the app's own install`);
      for (const command of [framework.name, "tsx", "tsc"])
        assert.ok(existsSync(join(app, "node_modules", ".bin", command)), `node_modules/.bin/${command}`);
    });

    test("every command of its package.json, README and welcome page runs before any install", {
      // Its commands, the second `npm test` and two servers' starts.
      timeout: (COMMANDS_AT_MOST + 1) * COMMAND_MS + 2 * SERVE_MS,
    }, async () => {
      const scripts = Object.keys(
        (JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts,
      );
      assert.deepEqual(scripts.sort(), ["build", "dev", "migrate", "routes", "start", "test", "typecheck", "types"]);
      const page = readFileSync(join(app, framework.page), "utf8");
      const pageCommands = [...page.matchAll(/<code>((?:npx|npm) [^<]+)<\/code>/g)].map((match) => match[1]!);
      const commands = [
        ...new Set([
          ...readmeCommands(app),
          ...pageCommands,
          "npm run routes",
          "npm run types",
          "npm run typecheck",
          "npm test",
          "npm run build",
          "npm run migrate",
        ]),
      ];
      assert.ok(commands.length >= 10, commands.join("\n"));
      assert.ok(commands.length <= COMMANDS_AT_MOST, `raise COMMANDS_AT_MOST (the timeout): ${commands.join(", ")}`);
      for (const command of commands) {
        if (command === "npm run dev" || command === "npm start") continue;
        // `npx --no-install`: a command missing from the app fails here instead of fetching a
        // package of the same name from the registry.
        const result = sh(command.replace(/^npx /, "npx --no-install "), app);
        assert.equal(result.status, 0, `${command}:\n${result.output}`);
        if (command === "npm test")
          assert.match(result.output, new RegExp(`# pass ${framework.tests}\\b`), result.output);
        // The build names the next steps in the release order of docs/deployment.md.
        if (command === "npm run build")
          assert.match(
            result.output,
            /1\. APP_ENV=production \S+ \S*migrate .*\n.*2\. APP_ENV=production \S+ start/,
            result.output,
          );
      }
      // The app's own tests never open the development database of its .env (they delete rows).
      writeFileSync(join(app, ".env"), "DB_URL=sqlite:data/development.db\n");
      try {
        const tests = sh("npm test", app);
        assert.equal(tests.status, 0, tests.output);
        assert.ok(!existsSync(join(app, "data", "development.db")), "npm test opened the .env's DB_URL");
      } finally {
        rmSync(join(app, ".env"), { force: true });
      }
      assert.match(await serves("npm run dev", app), /Serving .* on http:\/\/127\.0\.0\.1:\d+/);
      // The build's server bundle serves, not a fallback to the build's files.
      assert.match(
        await serves("npm start -- --workers 1", app, {
          APP_ENV: "production",
          SECRET_KEY: randomBytes(48).toString("base64url"),
        }),
        /no cluster, from the build's server bundle/,
      );
    });

    test("its npm install keeps the links, installs the native drivers in the app and writes nothing in the repository", {
      // The install, then the app's `npm test`.
      timeout: INSTALL_MS + COMMAND_MS,
    }, () => {
      const links = [...installed(app)]
        .filter(([, path]) => lstatSync(path).isSymbolicLink())
        .map(([, path]) => realpathSync(path));
      const natives = ["better-sqlite3", "bcrypt", "esbuild"].map((name) =>
        realpathSync(join(repoRoot, "packages", "fw-a", "node_modules", name)),
      );
      const binding = join(natives[0]!, "build", "Release", "better_sqlite3.node");
      const bindingBefore = statSync(binding);
      // The workspace's installation: the store folders the app links to, the native drivers, and
      // the framework's own node_modules (its entries; the framework's sources may be rebuilt meanwhile).
      const store = join(repoRoot, "node_modules");
      const watched = snapshot([
        ...links.filter((path) => path.startsWith(store)),
        ...natives,
        join(frameworkDir, "node_modules"),
      ]);
      const install = sh(
        "npm install --no-audit --no-fund --prefer-offline",
        app,
        { npm_config_better_sqlite3_local_prebuilds: prebuilds },
        INSTALL_MS,
      );
      assert.equal(install.status, 0, install.output);
      const bindingAfter = statSync(binding);
      assert.deepEqual(
        [bindingAfter.ino, bindingAfter.mtimeMs],
        [bindingBefore.ino, bindingBefore.mtimeMs],
        "the workspace's better-sqlite3 binding is the same file",
      );
      assert.deepEqual(changed(watched, snapshot([...watched.keys()].filter((path) => existsSync(path)))), []);
      for (const native of ["better-sqlite3", "bcrypt"]) {
        const dir = join(app, "node_modules", native);
        assert.ok(existsSync(dir) && !lstatSync(dir).isSymbolicLink(), `${native} is the app's own`);
      }
      assert.ok(existsSync(join(app, "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node")));
      assert.ok(
        lstatSync(join(app, "node_modules", framework.name)).isSymbolicLink(),
        "the framework stays a link to this checkout",
      );
      const tests = sh("npm test", app);
      assert.equal(tests.status, 0, tests.output);
    });
  });
}

import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../bin/fw-a.js", import.meta.url));
const run = (cwd: string, ...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { cwd, encoding: "utf8", env: { ...process.env, FW_TS_LOADER: "" } });

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// A server's start (or reload) on a 2-core machine under heavy load: a CLI run that takes 3 s on a
// quiet machine took 51 s at a load average of 22. Waits end as soon as the answer comes; this only
// ends a hang.
const SERVE_MS = 180_000;

async function waitFor(
  url: string,
  predicate: (text: string, status: number) => boolean,
  timeoutMs = SERVE_MS,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      last = await res.text();
      if (predicate(last, res.status)) return last;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${url}; last answer: ${last.slice(0, 300)}`);
}

describe("fw-a CLI as a new user runs it", () => {
  let dir = "";
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "fw-a-e2e-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("gen:init writes the skeleton and never overwrites", () => {
    const first = run(dir, "gen:init");
    assert.equal(first.status, 0, first.stderr);
    for (const file of [
      "app.ts",
      "package.json",
      "tsconfig.json",
      "lib/config.ts",
      "lib/models.ts",
      "run/scripts.ts",
      "views/main.ts",
      "templates/layouts/base.html",
      "templates/main/Index/index.html",
      ".gitignore",
      "README.md",
    ]) {
      assert.ok(existsSync(join(dir, file)), `${file} exists`);
    }
    // The first migration carries the scaffold's time: a migration made later on this machine sorts after it.
    const [firstMigration] = readdirSync(join(dir, "migrations"));
    const stamp = /^(\d{14})_create_notes\.ts$/.exec(firstMigration ?? "")?.[1];
    assert.ok(stamp, `migrations/ holds ${firstMigration}`);
    assert.ok(
      Math.abs(Number(stamp) - Number(new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14))) < 10_000,
      stamp,
    );
    assert.ok(existsSync(join(dir, "static")) && existsSync(join(dir, "data")));
    writeFileSync(join(dir, "README.md"), "mine");
    const second = run(dir, "gen:init");
    assert.equal(second.status, 0);
    assert.match(second.stdout, /skip\s+README\.md/);
    assert.equal(readFileSync(join(dir, "README.md"), "utf8"), "mine");
  });

  test("gen:serve answers / (HTML) and /api/ (JSON), reloads an edited view, stops on SIGTERM", async () => {
    const port = await freePort();
    const server: ChildProcess = spawn(process.execPath, [bin, "gen:serve", "--port", String(port)], {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, FW_TS_LOADER: "" },
    });
    let output = "";
    server.stdout!.on("data", (chunk) => (output += chunk));
    server.stderr!.on("data", (chunk) => (output += chunk));
    try {
      const base = `http://127.0.0.1:${port}`;
      const html = await waitFor(`${base}/`, (_text, status) => status === 200);
      assert.match(html, /<h1>Welcome<\/h1>/);
      assert.match(html, /Rows come from SQLite/, "the home page lists rows from the app's SQLite database");
      const api = await fetch(`${base}/api/`);
      assert.equal(api.status, 200);
      assert.match(api.headers.get("content-type") ?? "", /application\/json/);
      assert.equal(((await api.json()) as { ok: boolean }).ok, true);

      const view = join(dir, "views/main.ts");
      writeFileSync(view, readFileSync(view, "utf8").replace("Your fw-a app is running.", "Edited without a restart."));
      await waitFor(`${base}/`, (text) => text.includes("Edited without a restart."));

      const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
      server.kill("SIGTERM");
      assert.equal(await exited, 0, output);
      await assert.rejects(fetch(`${base}/`), "the port is closed after SIGTERM");
    } finally {
      if (server.exitCode === null) server.kill("SIGKILL");
    }
  });

  test("gen:view adds a view, routes lists it, app scripts run", () => {
    const view = run(dir, "gen:view", "contact");
    assert.equal(view.status, 0, view.stderr);
    assert.ok(existsSync(join(dir, "views/contact.ts")));
    assert.ok(existsSync(join(dir, "templates/contact/Contact/index.html")));
    const routes = run(dir, "routes", "--json");
    assert.equal(routes.status, 0, routes.stderr);
    const listing = JSON.parse(routes.stdout) as Array<{ path: string; handler: string; kind: string }>;
    assert.deepEqual(listing.map((r) => r.path).sort(), ["/", "/api/", "/contact/"]);
    assert.equal(listing.find((r) => r.path === "/api/")?.kind, "json");
    const text = run(dir, "routes");
    assert.match(text.stdout, /GET\s+\/contact\/\s+contact:Contact\.index/);
    const hello = run(dir, "hello", "Bob");
    assert.equal(hello.status, 0, hello.stderr);
    assert.match(hello.stdout, /Hello, Bob!/);
  });

  test("db:status, db:make and db:rollback work on the scaffold's SQLite database", () => {
    const status = run(dir, "db:status");
    assert.equal(status.status, 0, status.stderr);
    assert.match(status.stdout, /\[x\] \d{14}_create_notes(\.ts)?$/m);
    const make = run(dir, "db:make", "add_tags");
    assert.equal(make.status, 0, make.stderr);
    assert.match(make.stdout, /created .*_add_tags\.ts/);
    const bad = run(dir, "db:make", "../evil");
    assert.notEqual(bad.status, 0);
    assert.match(bad.stderr, /E_BAD_MIGRATION_NAME/);
    const migrate = run(dir, "db:migrate");
    assert.equal(migrate.status, 0, migrate.stderr);
    assert.match(migrate.stdout, /applied .*_add_tags$/m);
    const rollback = run(dir, "db:rollback");
    assert.equal(rollback.status, 0, rollback.stderr);
    assert.match(rollback.stdout, /rolled back\s+.*_add_tags(\.ts)?$/m);
  });

  test("failing commands say why and exit non-zero", () => {
    const badName = run(dir, "gen:view", "1-bad");
    assert.notEqual(badName.status, 0);
    assert.match(badName.stderr, /not a valid view name/);
    const again = run(dir, "gen:view", "contact");
    assert.notEqual(again.status, 0);
    assert.match(again.stderr, /already exist/);
    const empty = mkdtempSync(join(tmpdir(), "fw-a-empty-"));
    const noApp = run(empty, "routes");
    assert.notEqual(noApp.status, 0);
    assert.match(noApp.stderr, /E_APP_NOT_FOUND/);
    rmSync(empty, { recursive: true, force: true });
    const unknown = run(dir, "nope");
    assert.notEqual(unknown.status, 0);
    const serve = run(dir, "serve");
    assert.notEqual(serve.status, 0);
    assert.match(serve.stderr, /Unknown command "serve"\. Did you mean "gen:serve"\?/);
    const missing = run(dir, "gen:view");
    assert.match(missing.stderr, /fw-a gen:view needs <name>: fw-a gen:view <name>\./);
  });

  test("--version prints fw-a's version", () => {
    const version = run(dir, "--version");
    assert.equal(version.status, 0, version.stderr);
    assert.equal(
      version.stdout.trim(),
      JSON.parse(readFileSync(fileURLToPath(new URL("../package.json", import.meta.url)), "utf8")).version,
    );
  });

  test("gen:view takes a sub-folder, as fw-b's :addview does", () => {
    const view = run(dir, "gen:view", "admin/users");
    assert.equal(view.status, 0, view.stderr);
    assert.ok(existsSync(join(dir, "views/admin/users.ts")));
    assert.ok(existsSync(join(dir, "templates/admin/users/Users/index.html")));
    const routes = run(dir, "routes");
    assert.match(routes.stdout, /GET\s+\/users\/\s+admin\/users:Users\.index/);
  });

  test("the dev server on a busy port exits non-zero naming --port and PORT", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const server = spawn(process.execPath, [bin, "gen:serve", "--port", String(port)], {
        cwd: dir,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, FW_TS_LOADER: "" },
      });
      let output = "";
      server.stdout!.on("data", (chunk) => (output += chunk));
      server.stderr!.on("data", (chunk) => (output += chunk));
      // Before, the server stayed up (hung) with a bare EADDRINUSE: give up after a server's start.
      const timer = setTimeout(() => server.kill("SIGKILL"), SERVE_MS);
      const code = await new Promise<number | null>((resolve) => server.once("exit", (exitCode) => resolve(exitCode)));
      clearTimeout(timer);
      assert.notEqual(code, 0, output);
      assert.match(output, new RegExp(`E_PORT_IN_USE: 127\\.0\\.0\\.1:${port} is already in use`));
      assert.match(output, /--port 5001, or PORT=5001/);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});

// An app outside the repository, made from this checkout, whose own driver differs from the
// framework's: the command line loads the app's copy (from the app's folder, not the checkout's
// node_modules) and stops at start-up when it is outside the supported range or missing.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../bin/fw-a.js", import.meta.url));
const run = (cwd: string, env: NodeJS.ProcessEnv, ...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, FW_TS_LOADER: "", APP_ENV: "development", ...env },
  });
const dataPeers = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../data/package.json", import.meta.url)), "utf8"),
) as { peerDependencies: Record<string, string> };

function installFake(app: string, name: string, version: string): void {
  const dir = join(app, "node_modules", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, version, main: "index.js" }));
  writeFileSync(
    join(dir, "index.js"),
    "module.exports = function Client() { throw new Error('the app\\'s own driver'); };",
  );
}

describe("an app outside the repository picks its own drivers", () => {
  const work = mkdtempSync(join(tmpdir(), "fw-a-drivers-"));
  const app = join(work, "shop");
  after(() => rmSync(work, { recursive: true, force: true }));
  before(() => {
    const init = run(work, {}, "gen:init", "--root", app, "--no-registry");
    assert.equal(init.status, 0, init.stderr);
  });

  test("a pg the app installed outside the supported range stops db:status with E_DRIVER_VERSION", () => {
    installFake(app, "pg", "7.18.2");
    const result = run(app, { DB_URL: "postgres://postgres@127.0.0.1:5432/test" }, "db:status");
    assert.notEqual(result.status, 0);
    const output = `${result.stdout}${result.stderr}`;
    assert.match(output, /E_DRIVER_VERSION/, output);
    assert.match(output, new RegExp(`npm install pg@"\\${dataPeers.peerDependencies["pg"]}"`), output);
  });

  test("run from another folder with --root, the command loads the drivers of the app it names", () => {
    installFake(app, "pg", "7.18.2");
    const result = run(work, { DB_URL: "postgres://postgres@127.0.0.1:5432/test" }, "db:status", "--root", app);
    assert.notEqual(result.status, 0);
    assert.match(`${result.stdout}${result.stderr}`, /E_DRIVER_VERSION/);
  });

  test("a driver the app has neither installed nor declared is missing, although the checkout has one", () => {
    const result = run(app, { DB_URL: "mysql://root@127.0.0.1:3306/test" }, "db:status");
    assert.notEqual(result.status, 0);
    const output = `${result.stdout}${result.stderr}`;
    assert.match(output, /E_DB_DRIVER_MISSING/, output);
    assert.match(output, /not installed in the app at .*shop.*npm install mysql2/s, output);
  });
});

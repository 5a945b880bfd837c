// An app outside the repository picks its database driver: the data battery loads pg, mysql2 and
// better-sqlite3 from the app's folder (and knex uses that copy, not the one beside knex), checks
// the version against its peer range, and names the install when the app has none.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { driverRoot, setDriverRoot } from "@fwkit/battery-kit/host";
import { connect } from "../src/connection.js";

const work = mkdtempSync(join(tmpdir(), "data-drivers-"));
const before = driverRoot();
after(() => {
  setDriverRoot(before);
  rmSync(work, { recursive: true, force: true });
});

function app(name: string, drivers: Record<string, { version: string; body: string }> = {}): string {
  const root = join(work, name);
  mkdirSync(root, { recursive: true });
  // A real app's package.json: it depends on its framework.
  writeFileSync(
    join(root, "package.json"),
    JSON.stringify({ name, type: "module", dependencies: { "fw-a": "^0.1.0" } }),
  );
  for (const [driver, { version, body }] of Object.entries(drivers)) {
    const dir = join(root, "node_modules", driver);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: driver, version, main: "index.js" }));
    writeFileSync(join(dir, "index.js"), body);
  }
  setDriverRoot(root);
  return root;
}

test("a PostgreSQL URL in an app without pg stops with E_DB_DRIVER_MISSING naming the app and the install", async () => {
  app("no-pg");
  await assert.rejects(connect("postgres://postgres@127.0.0.1:5432/test"), (error: Error & { code?: string }) => {
    assert.equal(error.code, "E_DB_DRIVER_MISSING");
    assert.match(error.message, /not installed in the app at .*no-pg/);
    assert.match(error.message, /npm install pg/);
    return true;
  });
});

test("a pg outside the battery's range is E_DRIVER_VERSION with the range and the install", async () => {
  app("pg-9", { pg: { version: "9.0.0", body: "module.exports = {};" } });
  await assert.rejects(connect("postgres://postgres@127.0.0.1:5432/test"), (error: Error & { code?: string }) => {
    assert.equal(error.code, "E_DRIVER_VERSION");
    assert.match(error.message, /the app has pg 9\.0\.0/);
    assert.match(error.message, /npm install pg@"\^8/);
    return true;
  });
});

test("knex opens SQLite with the app's better-sqlite3, not the copy beside knex", async () => {
  app("own-sqlite", {
    "better-sqlite3": {
      version: "12.5.0",
      body: 'module.exports = function Database() { throw new Error("the app\'s own better-sqlite3 was used"); };',
    },
  });
  await assert.rejects(connect("sqlite::memory:"), (error: Error & { code?: string }) => {
    assert.equal(error.code, "E_DB_UNREACHABLE");
    assert.match(error.message, /the app's own better-sqlite3 was used/);
    return true;
  });
});

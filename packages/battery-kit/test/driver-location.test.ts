// An app outside the repository whose installed driver differs from the framework's: the battery's
// optional peers resolve from the app's folder and are checked against the peer range; a driver
// the app has not installed is an error naming its install, even when the battery has one beside it.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { pathToFileURL } from "node:url";
import { driverRoot, setDriverRoot } from "../src/driver-location.js";
import { driverLoader } from "../src/drivers.js";
import { E_DRIVER_VERSION } from "../src/errors.js";

const work = mkdtempSync(join(tmpdir(), "driver-location-"));
const before = driverRoot();
after(() => {
  setDriverRoot(before);
  rmSync(work, { recursive: true, force: true });
});

function write(file: string, content: string | object): void {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
}

/** A package `name`@`version` in `root`/node_modules whose CommonJS and ES entries say where they are. */
function installDriver(root: string, name: string, version: string, where: string): void {
  const dir = join(root, "node_modules", name);
  write(join(dir, "package.json"), {
    name,
    version,
    exports: { ".": { import: "./index.mjs", require: "./index.cjs" } },
  });
  write(join(dir, "index.cjs"), `module.exports = { where: ${JSON.stringify(where)} };`);
  write(join(dir, "index.mjs"), `export const where = ${JSON.stringify(where)};`);
}

// The battery (a framework's package, e.g. in a checkout or npx's cache) with its own copies.
const battery = join(work, "framework", "battery");
write(join(battery, "package.json"), {
  name: "battery",
  peerDependencies: { "fake-redis": "^5.8.0", "fake-queue": "^5.0.0" },
  peerDependenciesMeta: { "fake-redis": { optional: true }, "fake-queue": { optional: true } },
  dependencies: { "own-dep": "^1.0.0" },
});
installDriver(battery, "fake-redis", "5.9.0", "framework");
installDriver(battery, "fake-queue", "5.1.0", "framework");
installDriver(battery, "own-dep", "1.0.0", "framework");
write(join(battery, "src", "index.js"), "");

class Missing extends Error {}
const loader = () =>
  driverLoader(
    pathToFileURL(join(battery, "src", "index.js")).href,
    (user, name, reason) => new Missing(`The ${user} needs "${name}" (${reason}). Install it (npm install ${name}).`),
  );

/** An app folder whose package.json depends on its framework, as every real app's does. */
function app(name: string, dependencies: Record<string, string> = { "some-framework": "^1.0.0" }): string {
  const root = join(work, name);
  write(join(root, "package.json"), { name, type: "module", dependencies });
  setDriverRoot(root);
  return root;
}

test("an optional peer comes from the app's own node_modules, not the battery's", async () => {
  installDriver(app("app-own"), "fake-redis", "5.8.1", "app");
  const drivers = loader();
  assert.equal(drivers.requireDriver<{ where: string }>("fake-redis", "Redis store").where, "app");
  assert.equal((await drivers.importDriver<{ where: string }>("fake-redis", "Redis store")).where, "app");
  drivers.checkDriver("fake-redis", "Redis store");
});

test("an installed driver outside the battery's peer range stops the start, naming the range and the install", async () => {
  installDriver(app("app-newer"), "fake-redis", "6.0.0", "app");
  const drivers = loader();
  const check = (error: unknown) => {
    assert.ok(error instanceof E_DRIVER_VERSION, String(error));
    assert.equal((error as { code?: string }).code, "E_DRIVER_VERSION");
    assert.match(
      String((error as Error).message),
      /"fake-redis" in the range \^5\.8\.0, but the app has fake-redis 6\.0\.0/,
    );
    assert.match(String((error as Error).message), /npm install fake-redis@"\^5\.8\.0"/);
    return true;
  };
  assert.throws(() => drivers.checkDriver("fake-redis", "Redis store"), check);
  assert.throws(() => drivers.requireDriver("fake-redis", "Redis store"), check);
  await assert.rejects(drivers.importDriver("fake-redis", "Redis store"), check);
});

test("a driver the app has not installed is missing, although the battery has one beside it", () => {
  app("app-without");
  const drivers = loader();
  assert.throws(
    () => drivers.checkDriver("fake-queue", "job queue"),
    (error: unknown) => {
      assert.ok(error instanceof Missing, String(error));
      assert.match(error.message, /not installed in the app at .*app-without; it needs fake-queue@"\^5\.0\.0"/);
      assert.match(error.message, /npm install fake-queue/);
      return true;
    },
  );
});

test("the battery's own dependencies still resolve beside it", () => {
  app("app-plain");
  assert.equal(loader().requireDriver<{ where: string }>("own-dep", "the battery").where, "framework");
});

test("an app folder without a package.json, or one listing no dependency (a throwaway test app), takes the drivers beside the battery", () => {
  const root = join(work, "bare");
  mkdirSync(root, { recursive: true });
  setDriverRoot(root);
  assert.equal(loader().requireDriver<{ where: string }>("fake-queue", "job queue").where, "framework");
  app("no-dependencies", {});
  assert.equal(loader().requireDriver<{ where: string }>("fake-queue", "job queue").where, "framework");
});

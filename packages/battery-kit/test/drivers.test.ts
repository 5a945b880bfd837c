import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { sep } from "node:path";
import { test } from "node:test";
import { driverLoader } from "../src/drivers.js";

class MissingDriver extends Error {
  constructor(
    readonly user: string,
    readonly pkg: string,
    readonly reason: string,
  ) {
    super(`${user} needs ${pkg}: ${reason}`);
  }
}

const require = createRequire(import.meta.url);
const drivers = driverLoader(import.meta.url, (user, name, reason) => new MissingDriver(user, name, reason));

test("a present CommonJS package is required from the loader's own folder, once", () => {
  const first = drivers.requireDriver<{ compose?: unknown }>("koa-compose", "the test");
  assert.equal(typeof first, "function");
  assert.equal(drivers.requireDriver("koa-compose", "the test"), first);
});

test("a missing package becomes the battery's own error, naming it and its user, with the loader's error as cause", async () => {
  const check = (error: unknown) => {
    assert.ok(error instanceof MissingDriver);
    assert.equal(error.user, "the test");
    assert.equal(error.pkg, "no-such-package");
    assert.match(error.reason, /Cannot find (module|package) 'no-such-package'/);
    assert.doesNotMatch(error.reason, /\n/, "only the first line of the loader's message");
    assert.ok((error as Error & { cause?: unknown }).cause instanceof Error);
    return true;
  };
  assert.throws(() => drivers.requireDriver("no-such-package", "the test"), check);
  await assert.rejects(drivers.importDriver("no-such-package", "the test"), check);
  assert.throws(() => drivers.checkDriver("no-such-package", "the test"), check);
});

test("checkDriver finds an installed package without loading it", () => {
  const loaded = () => Object.keys(require.cache).some((path) => path.includes(`${sep}light-my-request${sep}`));
  assert.equal(loaded(), false);
  drivers.checkDriver("light-my-request", "the test");
  assert.equal(loaded(), false, "resolved, not required");
});

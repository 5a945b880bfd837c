// svg-captcha and openid-client are optional peer dependencies of fw-b: an app that
// switches on the built-in captcha or OAuth sign-in without installing its package must fail when
// it is built, with E_CONTRIB_DRIVER_MISSING naming the exact `npm install`, not at the first form
// or sign-in. Each case runs in a fresh Node process (sources through tsx, as the tests do) for an
// app folder outside the repository whose package.json lists every driver but the hidden one: drivers
// load from the app, so the hidden one is not installed there, as in a user's app that never ran
// `npm install <it>` (a listed one comes from the checkout, as before the app's own install).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";

const packageDir = fileURLToPath(new URL("../..", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "fwb-missing-drivers-"));
after(() => rmSync(work, { recursive: true, force: true }));

/** The drivers an fw-b app with contrib can be asked for. */
const DRIVERS = ["better-sqlite3", "bcrypt", "svg-captcha", "openid-client"];

/** An app folder outside the repository whose package.json lists every driver but `hidden`. */
function appWithout(hidden: string[]): string {
  const root = mkdtempSync(join(work, "app-"));
  mkdirSync(join(root, "views"));
  const dependencies = Object.fromEntries(DRIVERS.filter((name) => !hidden.includes(name)).map((name) => [name, "*"]));
  writeFileSync(
    join(root, "package.json"),
    JSON.stringify({ name: "app", private: true, type: "module", dependencies }),
  );
  return root;
}

/** Builds an app with `contrib` (not listening) whose folder lacks `hidden` (comma-separated); what it printed. */
function buildWithout(
  hidden: string,
  contrib: Record<string, unknown>,
): { status: number | null; stdout: string; stderr: string } {
  const script = `const { createApp } = await import("fw-b");
try {
  const app = await createApp({ root: ${JSON.stringify(appWithout(hidden.split(",")))}, config: { env: "test", logRequests: false, dbUrl: "sqlite::memory:", autoMigrate: true, contrib: ${JSON.stringify(contrib)} } });
  console.log("BUILT");
  await app.close();
} catch (error) {
  console.log(JSON.stringify({ code: error.code, message: error.message }));
}`;
  const result = spawnSync(
    process.execPath,
    ["--conditions=source", "--import", "tsx", "--input-type=module", "-e", script],
    { cwd: packageDir, encoding: "utf8", timeout: 120_000 },
  );
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr };
}

const OAUTH = {
  providers: {
    acme: {
      type: "oauth2",
      clientId: "id",
      clientSecret: "secret",
      authorizationEndpoint: "https://acme.test/a",
      tokenEndpoint: "https://acme.test/t",
      userinfoEndpoint: "https://acme.test/u",
    },
  },
};

describe("a contrib module whose optional package is not installed is refused when the app is built", () => {
  test("contrib.captcha without svg-captcha: E_CONTRIB_DRIVER_MISSING naming npm install svg-captcha", () => {
    const result = buildWithout("svg-captcha", { captcha: true });
    assert.equal(result.status, 0, result.stderr);
    const error = JSON.parse(result.stdout.split("\n").at(-1)!) as { code: string; message: string };
    assert.equal(error.code, "E_CONTRIB_DRIVER_MISSING");
    assert.match(error.message, /built-in captcha \(contrib\.captcha\) needs the package "svg-captcha"/);
    assert.match(error.message, /npm install svg-captcha\b/);
  });

  test("contrib.oauth without openid-client: E_CONTRIB_DRIVER_MISSING naming npm install openid-client", () => {
    const result = buildWithout("openid-client", { auth: true, oauth: OAUTH });
    assert.equal(result.status, 0, result.stderr);
    const error = JSON.parse(result.stdout.split("\n").at(-1)!) as { code: string; message: string };
    assert.equal(error.code, "E_CONTRIB_DRIVER_MISSING");
    assert.match(error.message, /OAuth sign-in \(contrib\.oauth\) needs the package "openid-client"/);
    assert.match(error.message, /npm install openid-client\b/);
  });

  test("an app that switches neither on builds without them", () => {
    assert.equal(buildWithout("svg-captcha,openid-client", { auth: true }).stdout.split("\n").at(-1), "BUILT");
  });
});

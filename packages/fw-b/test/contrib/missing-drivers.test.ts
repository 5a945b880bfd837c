// svg-captcha and openid-client are optional peer dependencies of fw-b: an app that
// switches on the built-in captcha or OAuth sign-in without installing its package must fail when
// it is built, with E_CONTRIB_DRIVER_MISSING naming the exact `npm install`, not at the first form
// or sign-in. Each case runs in a fresh Node process (sources through tsx, as the tests do) where
// the package cannot be found: a preload makes node's resolver refuse it, as when it is not installed.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

const packageDir = fileURLToPath(new URL("../..", import.meta.url));
const fixtureApp = fileURLToPath(new URL("../fixture-app", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "fwb-missing-drivers-"));
after(() => rmSync(work, { recursive: true, force: true }));

const hide = join(work, "hide-packages.mjs");
writeFileSync(
  hide,
  `import Module from "node:module";
const hidden = new Set(process.env.HIDDEN_PACKAGES.split(","));
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (hidden.has(request)) throw Object.assign(new Error("Cannot find module '" + request + "'"), { code: "MODULE_NOT_FOUND" });
  return resolveFilename.call(this, request, ...rest);
};
`,
);

/** Builds the fixture app with `contrib` (not listening) while `hidden` cannot be found; what it printed. */
function buildWithout(
  hidden: string,
  contrib: Record<string, unknown>,
): { status: number | null; stdout: string; stderr: string } {
  const script = `const { createApp } = await import("fw-b");
try {
  const app = await createApp({ root: ${JSON.stringify(fixtureApp)}, config: { env: "test", logRequests: false, dbUrl: "sqlite::memory:", autoMigrate: true, contrib: ${JSON.stringify(contrib)} } });
  console.log("BUILT");
  await app.close();
} catch (error) {
  console.log(JSON.stringify({ code: error.code, message: error.message }));
}`;
  const result = spawnSync(
    process.execPath,
    [
      "--conditions=source",
      "--import",
      "tsx",
      "--import",
      pathToFileURL(hide).href,
      "--input-type=module",
      "-e",
      script,
    ],
    {
      cwd: packageDir,
      encoding: "utf8",
      env: { ...process.env, HIDDEN_PACKAGES: hidden },
      timeout: 120_000,
    },
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

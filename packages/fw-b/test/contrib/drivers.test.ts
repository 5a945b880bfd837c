import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Context } from "koa";
import { contribSettings } from "../../src/contrib/config.js";
import { checkContribDrivers, CONTRIB_DRIVERS, importDriver, requireDriver } from "../../src/contrib/drivers.js";
import { svgCaptchaVerifier } from "../../src/contrib/captcha/svg.js";

const missing = (name: string) => {
  throw Object.assign(new Error(`Cannot find module '${name}'\nRequire stack:\n- /app/x.js`), {
    code: "MODULE_NOT_FOUND",
  });
};

const settingsOf = (contrib: Record<string, unknown>) =>
  contribSettings({ env: "test", secretKey: "s", contrib } as unknown as Parameters<typeof contribSettings>[0]);

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

/** E_CONTRIB_DRIVER_MISSING naming the package, its exact install command and the module that needs it. */
const namesInstall = (name: string, module: string) => (error: Error & { code?: string }) => {
  assert.equal(error.code, "E_CONTRIB_DRIVER_MISSING");
  assert.match(
    error.message,
    new RegExp(`needs the package "${name}", which could not be loaded \\(Cannot find (module|package) '${name}'`),
  );
  assert.match(error.message, new RegExp(`npm install ${name}\\b`));
  assert.ok(error.message.includes(module), `${error.message} names ${module}`);
  assert.doesNotMatch(error.message, /Require stack/, "only the first line of the loader's message");
  assert.ok(error.cause, "the loader's error is kept as the cause");
  return true;
};

describe("the contrib modules' optional packages (svg-captcha, openid-client)", () => {
  test("installed (the repository's devDependencies), the start-up check passes and they load on first use", async () => {
    checkContribDrivers(settingsOf({ auth: true, captcha: true, oauth: OAUTH }));
    assert.equal(
      typeof requireDriver<{ create?: unknown }>("svg-captcha", CONTRIB_DRIVERS.captcha.user).create,
      "function",
    );
    const oidc = await importDriver<typeof import("openid-client")>("openid-client", CONTRIB_DRIVERS.oauth.user);
    assert.equal(typeof oidc.discovery, "function");
  });

  test("missing, the check at start-up is E_CONTRIB_DRIVER_MISSING naming npm install svg-captcha / openid-client", () => {
    assert.throws(
      () => checkContribDrivers(settingsOf({ captcha: true }), missing),
      namesInstall("svg-captcha", "contrib.captcha"),
    );
    assert.throws(
      () => checkContribDrivers(settingsOf({ auth: true, oauth: OAUTH }), missing),
      namesInstall("openid-client", "contrib.oauth"),
    );
  });

  test("nothing is checked for modules that are off, nor for the captcha when a hosted verifier replaces svg-captcha", () => {
    checkContribDrivers(settingsOf({}), missing);
    checkContribDrivers(settingsOf({ auth: true, contact: { recipients: ["a@example.com"] } }), missing);
    const hosted = { name: "hosted", challenge: () => "", verify: () => true };
    checkContribDrivers(settingsOf({ captcha: { verifier: hosted } }), missing);
  });

  test("a package that cannot be loaded on first use is E_CONTRIB_DRIVER_MISSING too (the loader's error, not a raw MODULE_NOT_FOUND)", async () => {
    assert.throws(
      () => requireDriver("no-such-package", CONTRIB_DRIVERS.captcha.user),
      namesInstall("no-such-package", "contrib.captcha"),
    );
    await assert.rejects(
      // @ts-expect-error: the package does not exist, which is the point.
      importDriver("no-such-package", CONTRIB_DRIVERS.oauth.user, () => import("no-such-package")),
      namesInstall("no-such-package", "contrib.oauth"),
    );
    // The built-in captcha draws with the real one.
    const html = await svgCaptchaVerifier("secret").challenge({ session: {} } as unknown as Context);
    assert.match(html, /<svg/);
  });
});
